package workspace

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace/internal/plant"
)

// fakeBackend is the R-fixture of SPEC 9: backend "sandbox"; push echoes
// {senderRev,null}; watermarks {0,0,{0,null}}; exec yields one exit-0
// event; no runtime id; fetchChanges an empty stream at {0,null}. Every hook
// receives the 0-based connection index.
type fakeBackend struct {
	mu sync.Mutex

	runtime    func(conn int) (string, bool)
	mode       SyncMode
	connectErr func(conn int) error
	fetch      func(conn int, req FetchRequest) (*FetchEnvelope, error)
	watermarks func(conn int, req WatermarksRequest) (Watermarks, error)
	push       func(conn int, req PushRequest) (PushResult, error)
	exec       func(conn int, cmd string) (EventStream, error)

	connects    int
	execs       int
	pushes      int
	fetches     int
	closes      int
	disposals   int
	fetchAfters []Cursor
	wmInputs    []WatermarksRequest
}

func (b *fakeBackend) Connect(ctx context.Context) (Handle, error) {
	b.mu.Lock()
	conn := b.connects
	b.connects++
	hook := b.connectErr
	b.mu.Unlock()
	if hook != nil {
		if err := hook(conn); err != nil {
			return nil, err
		}
	}
	return &fakeHandle{b: b, conn: conn}, nil
}

func (b *fakeBackend) count(f func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f()
}

func (b *fakeBackend) stats() (connects, execs, fetches, closes, disposals int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.connects, b.execs, b.fetches, b.closes, b.disposals
}

type fakeHandle struct {
	b    *fakeBackend
	conn int
}

func (h *fakeHandle) RuntimeID() (string, bool) {
	if h.b.runtime == nil {
		return "", false
	}
	return h.b.runtime(h.conn)
}
func (h *fakeHandle) SyncMode() SyncMode { return h.b.mode }
func (h *fakeHandle) Sync() SyncRPC {
	if h.b.mode == SyncNone {
		return nil
	}
	return fakeRPC{h}
}
func (h *fakeHandle) Exec(ctx context.Context, cmd string) (EventStream, error) {
	h.b.count(func() { h.b.execs++ })
	if h.b.exec != nil {
		return h.b.exec(h.conn, cmd)
	}
	return &fakeEvents{events: []Event{{Kind: EventExit}}}, nil
}
func (h *fakeHandle) Close() error {
	h.b.count(func() { h.b.closes++ })
	return nil
}

type fakeRPC struct{ h *fakeHandle }

func (r fakeRPC) FetchChanges(ctx context.Context, req FetchRequest) (*FetchEnvelope, error) {
	b := r.h.b
	b.count(func() { b.fetches++; b.fetchAfters = append(b.fetchAfters, req.After) })
	var env *FetchEnvelope
	var err error
	if b.fetch != nil {
		env, err = b.fetch(r.h.conn, req)
	} else {
		env = &FetchEnvelope{Changes: &fakeChanges{}}
	}
	if env != nil {
		if fc, ok := env.Changes.(*fakeChanges); ok {
			fc.b = b
		}
	}
	return env, err
}

func (r fakeRPC) Watermarks(ctx context.Context, req WatermarksRequest) (Watermarks, error) {
	b := r.h.b
	b.count(func() { b.wmInputs = append(b.wmInputs, req) })
	if b.watermarks != nil {
		return b.watermarks(r.h.conn, req)
	}
	return Watermarks{}, nil
}

func (r fakeRPC) Push(ctx context.Context, req PushRequest) (PushResult, error) {
	b := r.h.b
	b.count(func() { b.pushes++ })
	if b.push != nil {
		return b.push(r.h.conn, req)
	}
	applied := scheduler.At(req.SenderRev)
	if req.SenderCursor != nil {
		applied = *req.SenderCursor
	}
	return PushResult{Rev: req.SenderRev, Applied: len(req.Changes), AppliedPushCursor: applied}, nil
}

// fakeChanges yields changes, then err (if set) after failAt of them.
type fakeChanges struct {
	b       *fakeBackend
	changes []Change
	i       int
	failAt  int
	err     error
}

func (s *fakeChanges) Next(ctx context.Context) (Change, error) {
	if s.err != nil && s.i == s.failAt {
		return Change{}, s.err
	}
	if s.i >= len(s.changes) {
		return Change{}, io.EOF
	}
	s.i++
	return s.changes[s.i-1], nil
}

func (s *fakeChanges) Close() error {
	if s.b != nil {
		s.b.count(func() { s.b.disposals++ })
	}
	return nil
}

// fakeEvents yields events, then err (if set) after failAt of them; block,
// when set, makes Next wait for it (or ctx) before each read.
type fakeEvents struct {
	events []Event
	i      int
	failAt int
	err    error
	block  chan struct{}
	closed int
}

func (s *fakeEvents) Next(ctx context.Context) (Event, error) {
	if s.block != nil {
		if err := ctx.Err(); err != nil {
			return Event{}, err // a cancelled reader never wins a race
		}
		select {
		case <-s.block:
		case <-ctx.Done():
			return Event{}, ctx.Err()
		}
	}
	if s.err != nil && s.i == s.failAt {
		return Event{}, s.err
	}
	if s.i >= len(s.events) {
		return Event{}, io.EOF
	}
	s.i++
	return s.events[s.i-1], nil
}

func (s *fakeEvents) Close() error { s.closed++; return nil }

// sortedChanges returns the entries strictly after req.After and at or
// before req.Through (when set) — the fixture's coalesced stream.
func changesAfter(all []Change, req FetchRequest) []Change {
	var out []Change
	for _, c := range all {
		if !req.After.Less(c.Cursor()) {
			continue
		}
		if req.Through != nil && req.Through.Less(c.Cursor()) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// harness bundles one workspace under test with its fixture.
type harness struct {
	ws    *Workspace
	b     *fakeBackend
	clk   *clock.Mock
	sched *scheduler.Memory
	store *MemoryStore
	// seeded counts Schedule calls made by seed, hidden from scheduled().
	seeded int
}

// harnessOpt adjusts the options a harness builds its workspace with.
type harnessOpt func(*harnessConfig)

// harnessConfig is the workspace's Options and the planted bugs.
type harnessConfig struct {
	Options
	mut plant.Set
}

func withRetry(initialMs, maxMs int64, attempts int) harnessOpt {
	return func(o *harnessConfig) {
		o.Retry = RetryOptions{
			InitialDelay: time.Duration(initialMs) * time.Millisecond,
			MaxDelay:     time.Duration(maxMs) * time.Millisecond,
			MaxAttempts:  attempts,
		}
	}
}

func withMutant(m plant.Set) harnessOpt { return func(o *harnessConfig) { o.mut = m } }
func withoutScheduler() harnessOpt      { return func(o *harnessConfig) { o.Scheduler = nil } }

// newHarness builds a workspace on backend "sandbox" with the clock at nowMs.
func newHarness(t *testing.T, b *fakeBackend, nowMs int64, opts ...harnessOpt) *harness {
	t.Helper()
	h := &harness{b: b, clk: clock.NewMock(), sched: scheduler.NewMemory(), store: NewMemoryStore()}
	h.clk.Set(time.UnixMilli(nowMs))
	o := harnessConfig{Options: Options{
		Backends:  []BackendConfig{{ID: "sandbox", Backend: b}},
		Clock:     h.clk,
		Scheduler: h.sched,
		Store:     h.store,
	}}
	for _, f := range opts {
		f(&o)
	}
	ws, err := newWorkspace(o.Options, o.mut)
	if err != nil {
		t.Fatal(err)
	}
	h.ws = ws
	t.Cleanup(func() { _ = ws.Close() })
	return h
}

// stored returns the stored intents as Intent.String lines.
func (h *harness) stored(t *testing.T) []string {
	t.Helper()
	list, err := h.sched.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return intentStrings(list)
}

// scheduled returns the Schedule calls made after seeding, as strings.
func (h *harness) scheduled() []string { return intentStrings(h.sched.Scheduled())[h.seeded:] }

// seed stores an intent as the host would have before the test's calls.
func (h *harness) seed(t *testing.T, in scheduler.Intent) {
	t.Helper()
	if err := h.sched.Schedule(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	h.seeded++
}

func intentStrings(list []scheduler.Intent) []string {
	out := make([]string, len(list))
	for i, in := range list {
		out[i] = in.String()
	}
	return out
}

func errorText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func mustContain(t *testing.T, got, want string) {
	t.Helper()
	if !strings.Contains(got, want) {
		t.Fatalf("%q does not contain %q", got, want)
	}
}

var errPlain = errors.New("plain")

func ms(v int64) time.Time { return time.UnixMilli(v) }

// timeAfter is time.After in milliseconds, for tests that must show that
// something did not happen.
func timeAfter(msec int) <-chan time.Time { return time.After(time.Duration(msec) * time.Millisecond) }
