package scheduler_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/benbjohnson/clock"

	"github.com/syncsim/syncsim/scheduler"
)

// fireLog records FireFunc calls and lets a test wait for the next one.
type fireLog struct {
	mu    sync.Mutex
	calls [][]string
	ch    chan []string
	fail  error
}

func newFireLog() *fireLog { return &fireLog{ch: make(chan []string, 16)} }

func (f *fireLog) fire(_ context.Context, due []string) error {
	f.mu.Lock()
	f.calls = append(f.calls, slices.Clone(due))
	err := f.fail
	f.mu.Unlock()
	f.ch <- due
	return err
}

func (f *fireLog) next(t *testing.T) []string {
	t.Helper()
	select {
	case due := <-f.ch:
		return due
	case <-time.After(5 * time.Second):
		t.Fatal("alarm did not fire")
		return nil
	}
}

func (f *fireLog) none(t *testing.T) {
	t.Helper()
	select {
	case due := <-f.ch:
		t.Fatalf("unexpected firing with %v", due)
	case <-time.After(20 * time.Millisecond):
	}
}

var t0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func newMockWaker(t *testing.T, store *scheduler.Memory, f *fireLog) (*clock.Mock, *scheduler.Waker) {
	clk := clock.NewMock()
	clk.Set(t0)
	w := scheduler.NewWaker(clk, store, 3, f.fire)
	t.Cleanup(w.Stop)
	return clk, w
}

func TestWakerFiresAtEarliestAndRearms(t *testing.T) {
	ctx := context.Background()
	store := scheduler.NewMemory()
	f := newFireLog()
	clk, w := newMockWaker(t, store, f)

	store.Schedule(ctx, scheduler.Intent{Backend: "b", Attempt: 1, NotBefore: t0.Add(2 * time.Second)})
	store.Schedule(ctx, scheduler.Intent{Backend: "a", Attempt: 1, NotBefore: t0.Add(5 * time.Second)})
	if err := w.Rearm(ctx); err != nil {
		t.Fatal(err)
	}
	if at, ok := w.Next(); !ok || !at.Equal(t0.Add(2*time.Second)) {
		t.Fatalf("Next = %v, %v; want t0+2s", at, ok)
	}
	clk.Add(time.Second)
	f.none(t)
	clk.Add(time.Second)
	if due := f.next(t); !slices.Equal(due, []string{"b"}) {
		t.Fatalf("due = %v, want [b]", due)
	}
	waitNext(t, w, t0.Add(5*time.Second))
	clk.Add(3 * time.Second)
	if due := f.next(t); !slices.Equal(due, []string{"a"}) {
		t.Fatalf("due = %v, want [a]", due)
	}
	// a and b are both still stored, unchanged: the fire func did nothing,
	// like a retry that came back exhausted. They are handled; no loop.
	waitUnarmed(t, w)
	f.none(t)
}

// An exhausted intent left in the past does not re-arm the alarm, but one
// scheduled later by a command does, and a restart (a new Waker) gives the
// exhausted one its one more pull.
func TestWakerExhaustedDoesNotLoop(t *testing.T) {
	ctx := context.Background()
	store := scheduler.NewMemory()
	f := newFireLog()
	clk, w := newMockWaker(t, store, f)
	store.Schedule(ctx, scheduler.Intent{Backend: "x", Attempt: 3, NotBefore: t0.Add(time.Second)})
	store.Schedule(ctx, scheduler.Intent{Backend: "over", Attempt: 4, NotBefore: t0}) // never pulls
	w.Rearm(ctx)
	clk.Add(time.Second)
	if due := f.next(t); !slices.Equal(due, []string{"x"}) {
		t.Fatalf("due = %v, want [x]", due)
	}
	waitUnarmed(t, w)
	f.none(t)

	store.Schedule(ctx, scheduler.Intent{Backend: "y", Attempt: 1, NotBefore: clk.Now().Add(time.Second)})
	w.Rearm(ctx)
	clk.Add(time.Second)
	if due := f.next(t); !slices.Equal(due, []string{"y"}) {
		t.Fatalf("due = %v, want [y] (x already handled)", due)
	}

	w.Stop()
	restarted := scheduler.NewWaker(clk, store, 3, f.fire)
	defer restarted.Stop()
	restarted.Rearm(ctx)
	clk.Add(0) // the due alarm went through the mock's AfterFunc: fire it
	if due := f.next(t); !slices.Equal(due, []string{"x", "y"}) {
		t.Fatalf("after restart due = %v, want [x y]", due)
	}
}

// A firing that finds nothing due (the intent it was armed for was cleared
// without a Rearm) keeps what earlier firings settled: an exhausted
// intent handed over before must not arm the alarm again, in a past it
// would fire at at once, only because a later firing handed nothing over.
func TestWakerEmptyFiringKeepsSettled(t *testing.T) {
	ctx := context.Background()
	store := scheduler.NewMemory()
	f := newFireLog()
	clk, w := newMockWaker(t, store, f)
	store.Schedule(ctx, scheduler.Intent{Backend: "x", Attempt: 3, NotBefore: t0.Add(time.Second)})
	w.Rearm(ctx)
	clk.Add(time.Second)
	if due := f.next(t); !slices.Equal(due, []string{"x"}) {
		t.Fatalf("due = %v, want [x]", due)
	}
	waitUnarmed(t, w) // x came back unchanged: settled

	store.Schedule(ctx, scheduler.Intent{Backend: "y", Attempt: 1, NotBefore: clk.Now().Add(time.Second)})
	w.Rearm(ctx)
	waitNext(t, w, clk.Now().Add(time.Second))
	store.Clear(ctx, "y") // no Rearm: the alarm will find nothing due
	clk.Add(time.Second)
	waitUnarmed(t, w)
	time.Sleep(20 * time.Millisecond) // the firing may still be re-arming
	if at, ok := w.Next(); ok {
		t.Fatalf("after a firing with nothing due the alarm is armed at %v: the settled x was forgotten", at)
	}
	clk.Add(0) // a due alarm goes through the mock's AfterFunc: fire it if armed
	f.none(t)
}

// A failing FireFunc leaves the due intents unhandled and retries after
// RetryDelay, not in a busy loop and not never.
func TestWakerRetriesAfterFireError(t *testing.T) {
	ctx := context.Background()
	store := scheduler.NewMemory()
	f := newFireLog()
	f.fail = errors.New("store down")
	clk, w := newMockWaker(t, store, f)
	w.RetryDelay = 10 * time.Second
	store.Schedule(ctx, scheduler.Intent{Backend: "a", Attempt: 1, NotBefore: t0})
	w.Rearm(ctx)
	clk.Add(0) // the mock fires the due AfterFunc when moved
	f.next(t)  // due at once
	waitNext(t, w, t0.Add(10*time.Second))
	f.none(t)
	f.mu.Lock()
	f.fail = nil
	f.mu.Unlock()
	clk.Add(10 * time.Second)
	if due := f.next(t); !slices.Equal(due, []string{"a"}) {
		t.Fatalf("retry due = %v", due)
	}
	waitUnarmed(t, w)
}

func TestWakerRearmEarlierAndStop(t *testing.T) {
	ctx := context.Background()
	store := scheduler.NewMemory()
	f := newFireLog()
	clk, w := newMockWaker(t, store, f)
	store.Schedule(ctx, scheduler.Intent{Backend: "late", Attempt: 1, NotBefore: t0.Add(time.Minute)})
	w.Rearm(ctx)
	store.Schedule(ctx, scheduler.Intent{Backend: "early", Attempt: 1, NotBefore: t0.Add(time.Second)})
	w.Rearm(ctx)
	waitNext(t, w, t0.Add(time.Second))
	store.Clear(ctx, "early")
	store.Clear(ctx, "late")
	w.Rearm(ctx)
	waitUnarmed(t, w)
	clk.Add(time.Hour)
	f.none(t)
	w.Stop()
	if err := w.Rearm(ctx); !errors.Is(err, scheduler.ErrWakerStopped) {
		t.Errorf("Rearm after Stop = %v", err)
	}
}

func waitNext(t *testing.T, w *scheduler.Waker, want time.Time) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if at, ok := w.Next(); ok && at.Equal(want) {
			return
		}
		time.Sleep(time.Millisecond)
	}
	at, ok := w.Next()
	t.Fatalf("Next = %v, %v; want %v", at, ok, want)
}

func waitUnarmed(t *testing.T, w *scheduler.Waker) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if _, ok := w.Next(); !ok {
			return
		}
		time.Sleep(time.Millisecond)
	}
	at, _ := w.Next()
	t.Fatalf("alarm still armed at %v", at)
}

// TestWakerDueAlarmGoesThroughTheClock: an alarm already due is a clock
// timer like any other (AfterFunc with d <= 0), never a goroutine of the
// Waker's own: on the real clock it fires at once, and a clock that
// schedules its timers (syncsim's) decides where the callback runs.
func TestWakerDueAlarmGoesThroughTheClock(t *testing.T) {
	ctx := context.Background()
	store := scheduler.NewMemory()
	f := newFireLog()
	store.Schedule(ctx, scheduler.Intent{Backend: "a", Attempt: 1, NotBefore: t0})
	w := scheduler.NewWaker(clock.New(), store, 3, f.fire)
	defer w.Stop()
	w.Rearm(ctx)
	if due := f.next(t); !slices.Equal(due, []string{"a"}) {
		t.Fatalf("real clock: due = %v, want [a]", due)
	}

	clk := clock.NewMock()
	clk.Set(t0)
	counting := &countingClock{Mock: clk}
	mw := scheduler.NewWaker(counting, store, 3, f.fire)
	defer mw.Stop()
	mw.Rearm(ctx)
	if counting.afterFuncs != 1 {
		t.Fatalf("a due alarm made %d AfterFunc calls, want 1 (no goroutine of its own)", counting.afterFuncs)
	}
	f.none(t) // the mock has not moved
	clk.Add(0)
	if due := f.next(t); !slices.Equal(due, []string{"a"}) {
		t.Fatalf("mock clock: due = %v, want [a]", due)
	}
}

type countingClock struct {
	*clock.Mock
	afterFuncs int
}

func (c *countingClock) AfterFunc(d time.Duration, fn func()) *clock.Timer {
	c.afterFuncs++
	return c.Mock.AfterFunc(d, fn)
}
