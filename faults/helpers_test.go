package faults

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

var ctx = context.Background()

func newContainer(pr Profile, seed uint64) *Container {
	return NewContainer("b1", NoHooks{}, rand.New(rand.NewPCG(seed, 1)), &pr)
}

func mustConnect(t *testing.T, c *Container) workspace.Handle {
	t.Helper()
	h, err := c.Connect(ctx)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return h
}

// run executes command and drains its event stream, returning the exit
// code.
func run(t *testing.T, h workspace.Handle, command string) int {
	t.Helper()
	es, err := h.Exec(ctx, command)
	if err != nil {
		t.Fatalf("exec %q: %v", command, err)
	}
	defer es.Close()
	code := -1
	for range 10 {
		ev, err := es.Next(ctx)
		if errors.Is(err, io.EOF) {
			return code
		}
		if err != nil {
			t.Fatalf("exec %q: event: %v", command, err)
		}
		if ev.Kind == workspace.EventExit {
			code = ev.ExitCode
		}
	}
	t.Fatalf("exec %q: event stream did not end", command)
	return code
}

// drain reads a fetch of (after, through] to the end and returns the
// entries' cursors and the envelope.
func drain(t *testing.T, h workspace.Handle, after scheduler.Cursor, through *scheduler.Cursor) ([]scheduler.Cursor, *workspace.FetchEnvelope) {
	t.Helper()
	env, err := h.Sync().FetchChanges(ctx, workspace.FetchRequest{After: after, Through: through})
	if err != nil {
		t.Fatalf("fetch: %v", err)
	}
	defer env.Changes.Close()
	var got []scheduler.Cursor
	for range 10000 {
		ch, err := env.Changes.Next(ctx)
		if errors.Is(err, io.EOF) {
			return got, env
		}
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
		got = append(got, ch.Cursor())
	}
	t.Fatal("stream did not end")
	return nil, nil
}

func at(rev int64, path string) scheduler.Cursor { return scheduler.AtPath(rev, path) }
