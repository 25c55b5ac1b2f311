package workspace_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// flakyBackend runs every command (exit 0) but cannot serve a pull.
type flakyBackend struct{}

func (flakyBackend) Connect(context.Context) (workspace.Handle, error) { return flakyHandle{}, nil }

type flakyHandle struct{}

func (flakyHandle) RuntimeID() (string, bool)    { return "", false }
func (flakyHandle) SyncMode() workspace.SyncMode { return workspace.SyncRemote }
func (flakyHandle) Sync() workspace.SyncRPC      { return flakyRPC{} }
func (flakyHandle) Close() error                 { return nil }
func (flakyHandle) Exec(context.Context, string) (workspace.EventStream, error) {
	return &exitStream{}, nil
}

type flakyRPC struct{}

func (flakyRPC) FetchChanges(context.Context, workspace.FetchRequest) (*workspace.FetchEnvelope, error) {
	return nil, errors.New("backend unavailable")
}
func (flakyRPC) Watermarks(context.Context, workspace.WatermarksRequest) (workspace.Watermarks, error) {
	return workspace.Watermarks{}, nil
}
func (flakyRPC) Push(_ context.Context, req workspace.PushRequest) (workspace.PushResult, error) {
	return workspace.PushResult{Rev: req.SenderRev, AppliedPushCursor: scheduler.At(req.SenderRev)}, nil
}

type exitStream struct{ done bool }

func (s *exitStream) Next(context.Context) (workspace.Event, error) {
	if s.done {
		return workspace.Event{}, io.EOF
	}
	s.done = true
	return workspace.Event{Kind: workspace.EventExit}, nil
}
func (s *exitStream) Close() error { return nil }

// A command whose post-command pull fails leaves exactly one durable intent
// (SPEC 9 R3): attempt 1, due initialDelay after the clock's now.
func Example() {
	clk := clock.NewMock()
	clk.Set(time.UnixMilli(10000))
	sched := scheduler.NewMemory()
	ws, err := workspace.New(workspace.Options{
		Backends:  []workspace.BackendConfig{{ID: "sandbox", Backend: flakyBackend{}}},
		Clock:     clk,
		Scheduler: sched,
		Store:     workspace.NewMemoryStore(),
		Retry:     workspace.RetryOptions{InitialDelay: 2 * time.Second, MaxDelay: 30 * time.Second, MaxAttempts: 4},
	})
	if err != nil {
		panic(err)
	}
	defer ws.Close()

	res, err := ws.Exec(context.Background(), "build", workspace.ExecOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println("exit", res.ExitCode, "sync", res.Sync.Status, "error", res.Sync.Error)
	in, _, _ := sched.Get(context.Background(), "sandbox")
	fmt.Println(in.String())
	// Output:
	// exit 0 sync pending error backend unavailable
	// {backend sandbox attempt 1 notBefore 12000}
}
