package scenarios

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/workspace"
)

// Three plugged-in intent stores that fail by themselves: each is a
// scheduler.Memory (durable across the scenario's host restarts) with one
// method broken the way a real implementation gets it wrong. None of their
// errors is injected by the harness, so each must be reported as the
// store-error property, naming the call, by scenarios.Check at its default
// budget, not read as an injected fault the workspace handled.

// errGetMissing is what getMissingFails returns for an absent intent: a
// store that treats "no row" as an error (sql.ErrNoRows leaking through),
// where the contract says no intent is not an error.
var errGetMissing = errors.New("intent not found")

type getMissingFails struct{ *scheduler.Memory }

func (s getMissingFails) Get(ctx context.Context, backend string) (scheduler.Intent, bool, error) {
	in, ok, err := s.Memory.Get(ctx, backend)
	if err == nil && !ok {
		return scheduler.Intent{}, false, fmt.Errorf("get %s: %w", backend, errGetMissing)
	}
	return in, ok, err
}

// scheduleEveryNthFails fails every nth Schedule (a store whose connection
// pool times out now and then) without writing.
type scheduleEveryNthFails struct {
	*scheduler.Memory
	n int

	mu    sync.Mutex
	calls int
}

func (s *scheduleEveryNthFails) Schedule(ctx context.Context, in scheduler.Intent) error {
	s.mu.Lock()
	s.calls++
	fail := s.calls%s.n == 0
	s.mu.Unlock()
	if fail {
		return errors.New("schedule: connection reset by peer")
	}
	return s.Memory.Schedule(ctx, in)
}

// clearLosesAck deletes the intent and then, on every nth Clear, reports
// an error anyway: the commit went through but its acknowledgement was
// lost. (A Clear that errors for an absent backend would be the other
// classic, but the workspace clears only the intent it has just read, under
// the backend's FIFO, so it never meets that case.)
type clearLosesAck struct {
	*scheduler.Memory
	n int

	mu    sync.Mutex
	calls int
}

func (s *clearLosesAck) Clear(ctx context.Context, backend string) error {
	if err := s.Memory.Clear(ctx, backend); err != nil {
		return err
	}
	s.mu.Lock()
	s.calls++
	fail := s.calls%s.n == 0
	s.mu.Unlock()
	if fail {
		return fmt.Errorf("clear %s: %w", backend, context.DeadlineExceeded)
	}
	return nil
}

// faultyStores are the three broken stores, each with the op its
// violation must name.
var faultyStores = []struct {
	name, op, errText string
	open              func() sim.SchedulerFactory
}{
	{"get-missing-errors", "get", "intent not found", func() sim.SchedulerFactory {
		s := getMissingFails{scheduler.NewMemory()}
		return func(string) (scheduler.Scheduler, error) { return s, nil }
	}},
	{"every-5th-schedule-errors", "schedule", "connection reset by peer", func() sim.SchedulerFactory {
		s := &scheduleEveryNthFails{Memory: scheduler.NewMemory(), n: 5}
		return func(string) (scheduler.Scheduler, error) { return s, nil }
	}},
	{"every-3rd-clear-errors-after-deleting", "clear", "context deadline exceeded", func() sim.SchedulerFactory {
		s := &clearLosesAck{Memory: scheduler.NewMemory(), n: 3}
		return func(string) (scheduler.Scheduler, error) { return s, nil }
	}},
}

// fatalRecorder is a testing.TB whose Fatal and Fatalf record the message
// instead of stopping the test, so a test can assert what Check reports.
type fatalRecorder struct {
	testing.TB
	msgs []string
}

func (r *fatalRecorder) Helper()           {}
func (r *fatalRecorder) Fatal(args ...any) { r.msgs = append(r.msgs, fmt.Sprint(args...)) }
func (r *fatalRecorder) Fatalf(format string, a ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, a...))
}

// TestCheckReportsStoreErrors plugs each broken store into scenarios.Check
// at its default budget (no Seeds given) and requires a store-error report
// that names the call: op, backend and the store's own error text.
func TestCheckReportsStoreErrors(t *testing.T) {
	for _, fs := range faultyStores {
		t.Run(fs.name, func(t *testing.T) {
			rec := &fatalRecorder{TB: t}
			Check(rec, SuiteOptions{NewStore: fs.open})
			if len(rec.msgs) != 1 {
				t.Fatalf("Check reported %d times, want once: %q", len(rec.msgs), rec.msgs)
			}
			msg := rec.msgs[0]
			for _, want := range []string{"PROPERTY  store-error", "intent store " + fs.op + " ", "not injected", fs.errText} {
				if !strings.Contains(msg, want) {
					t.Fatalf("Check's report lacks %q:\n%s", want, msg)
				}
			}
			t.Logf("%s", firstLines(msg, 5))
		})
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// listFails is a correct store whose List (the host's alarm bookkeeping,
// not a workspace call) fails once it holds an intent.
type listFails struct{ *scheduler.Memory }

func (s listFails) List(ctx context.Context) ([]scheduler.Intent, error) {
	l, err := s.Memory.List(ctx)
	if err == nil && len(l) > 0 {
		return nil, errors.New("list: too many open files")
	}
	return l, err
}

// The host's own List is a store call too: its failure is store-error,
// naming the call, not durability.
func TestListErrorIsStoreError(t *testing.T) {
	rep := mustSweep(t, SuiteOptions{Seeds: 100, NewStore: func() sim.SchedulerFactory {
		s := listFails{scheduler.NewMemory()}
		return func(string) (scheduler.Scheduler, error) { return s, nil }
	}})
	requireFailure(t, rep, "store-error")
	if d := rep.Failures[0].Violation.Detail; !strings.Contains(d, "intent store list (by host)") || !strings.Contains(d, "too many open files") {
		t.Fatalf("detail does not name the list call: %s", d)
	}
}

// applyEveryNthFails is a local store whose every nth ApplyUpstream fails
// without applying (a disk-full write that rolled back).
type applyEveryNthFails struct {
	*workspace.MemoryStore
	n     int
	calls int // one actor runs at a time: no lock needed under simulation
}

func (s *applyEveryNthFails) ApplyUpstream(backend string, changes []workspace.Change) (int, error) {
	if s.calls++; s.calls%s.n == 0 {
		return 0, errors.New("database or disk is full")
	}
	return s.MemoryStore.ApplyUpstream(backend, changes)
}

// The workspace's local store is checked the same way: a call that fails
// by itself is store-error, reported at the call with the op and backend.
func TestLocalStoreErrorIsStoreError(t *testing.T) {
	var first *sim.Violation
	failed := 0
	for seed := uint64(1); seed <= 100; seed++ {
		v := runWithLocalStore(t, seed, &applyEveryNthFails{MemoryStore: workspace.NewMemoryStore(), n: 4})
		if v == nil {
			continue
		}
		failed++
		if first == nil {
			first = v
		}
		if v.Property != "store-error" {
			t.Fatalf("seed %d broke %s, want store-error: %v", seed, v.Property, v)
		}
	}
	if first == nil {
		t.Fatal("a local store failing every 4th apply went unnoticed in 100 seeds")
	}
	if !strings.Contains(first.Detail, "local store apply-upstream ") || !strings.Contains(first.Detail, "disk is full") {
		t.Fatalf("detail does not name the call: %s", first.Detail)
	}
	t.Logf("%d of 100 seeds failed; first: %v", failed, first)
}

// runWithLocalStore runs seed's default scenario on st as the workspace's
// local store and returns the property it broke, if any.
func runWithLocalStore(t *testing.T, seed uint64, st workspace.Store) *sim.Violation {
	t.Helper()
	r, err := Run(FromSeed(seed, DefaultConfig), RunOptions{
		LocalStore: func(string) (workspace.Store, error) { return st, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	return r.Violation
}

// TestStoreOpenFailureIsReported: a plugged-in store that cannot open (its
// factory fails) or panics while opening is the store's bug, reported by
// Check against a seed (store-error naming the open, no-panic), not a
// setup error that stops the suite.
func TestStoreOpenFailureIsReported(t *testing.T) {
	for _, tc := range []struct {
		name, property, want string
		open                 func(dir string) (scheduler.Scheduler, error)
	}{
		{"error", "store-error", `intent store open (by host) failed, not injected by the harness: "open: disk quota exceeded"`,
			func(string) (scheduler.Scheduler, error) { return nil, errors.New("open: disk quota exceeded") }},
		{"panic", "no-panic", "panic at host start 1, outside any actor: open: index out of range",
			func(string) (scheduler.Scheduler, error) { panic("open: index out of range") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &fatalRecorder{TB: t}
			Check(rec, SuiteOptions{NewStore: func() sim.SchedulerFactory { return tc.open }})
			if len(rec.msgs) != 1 {
				t.Fatalf("Check reported %d times, want once: %q", len(rec.msgs), rec.msgs)
			}
			for _, want := range []string{"PROPERTY  " + tc.property, tc.want} {
				if !strings.Contains(rec.msgs[0], want) {
					t.Fatalf("Check's report lacks %q:\n%s", want, firstLines(rec.msgs[0], 20))
				}
			}
		})
	}
}

// listAlwaysFails is a store whose List fails even when it is empty, so the
// alarm cannot arm at the first host start.
type listAlwaysFails struct{ *scheduler.Memory }

func (listAlwaysFails) List(context.Context) ([]scheduler.Intent, error) {
	return nil, errors.New("list: permission denied")
}

// A store that fails the host's first listing, before any step, fails the
// run as store-error, naming the call: an alarm that cannot arm at the
// first start is the system's failure, never a setup error of the run.
// (The Waker failing by itself there is the kill matrix's
// waker-list-error-inverted, which died as a setup error, exit 2, before.)
func TestListErrorAtTheFirstStartIsStoreError(t *testing.T) {
	rep := mustSweep(t, SuiteOptions{Seeds: 3, NewStore: func() sim.SchedulerFactory {
		s := listAlwaysFails{scheduler.NewMemory()}
		return func(string) (scheduler.Scheduler, error) { return s, nil }
	}})
	requireFailure(t, rep, "store-error")
	if d := rep.Failures[0].Violation.Detail; !strings.Contains(d, "intent store list (by host)") || !strings.Contains(d, "permission denied") {
		t.Fatalf("detail does not name the list call: %s", d)
	}
}
