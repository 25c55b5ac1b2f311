package sim

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
)

func newQuietHost(t *testing.T) *Host {
	t.Helper()
	h, err := NewHost(judged(Config{Seed: 1, Backends: 1, Profile: faults.Off(), NoProbes: true}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// TestStoreListIsAChoicePoint: an actor lists the intent store twice, and
// another stores an intent. A schedule that switches at the point after the
// first listing returned runs the writer between the two listings: the
// first has no intent, the second has it. Before List was a blocking point
// nothing could run between two listings of one actor.
func TestStoreListIsAChoicePoint(t *testing.T) {
	h := newQuietHost(t)
	ctx := context.Background()
	var first, second []scheduler.Intent
	h.rt.Go("#90.lister", func() {
		first, _ = h.stores.sched.List(ctx)
		second, _ = h.stores.sched.List(ctx)
	})
	h.rt.Go("#91.writer", func() {
		in := scheduler.Intent{Backend: h.backends.names[0], Attempt: 1, NotBefore: h.clock.Now().Add(time.Second)}
		if err := h.stores.sched.Schedule(ctx, in); err != nil {
			t.Error(err)
		}
	})
	var points []string
	h.rt.OnSwitch(func(from, to, point string) {
		points = append(points, from+">"+to+"@"+point)
	})
	// Decisions: the Run's start, the first List's point, the point after
	// it returned, where the writer runs.
	h.SetSchedule([]string{"lister", "lister", "writer"})
	if _, err := h.rt.Run(); err != nil {
		t.Fatal(err)
	}
	if len(first) != 0 || len(second) != 1 {
		t.Errorf("listings %v then %v: want none, then the writer's intent (decisions %q)", first, second, points)
	}
	if want := "#90.lister>#91.writer@store.list/return"; !slices.Contains(points, want) {
		t.Errorf("decisions %q, want %q among them", points, want)
	}
	if h.stats.Faults["preempt-after@store.list"] != 1 {
		t.Errorf("reach preempt-after@store.list = %d, want 1 (the writer made a call meanwhile)", h.stats.Faults["preempt-after@store.list"])
	}
}

// TestReturnPointAloneIsNoDecision: with one actor runnable, the point
// after a call returns takes no decision, reaches no hook and records no
// choice, and nor does the point before a List (new too); the points before
// every other call still do, as they always did.
func TestReturnPointAloneIsNoDecision(t *testing.T) {
	h := newQuietHost(t)
	ctx := context.Background()
	h.rt.Go("#90.alone", func() {
		for range 3 {
			if _, _, err := h.stores.sched.Get(ctx, h.backends.names[0]); err != nil {
				t.Error(err)
			}
			if _, err := h.stores.sched.List(ctx); err != nil {
				t.Error(err)
			}
		}
	})
	var points []string
	h.rt.OnSwitch(func(_, _, point string) { points = append(points, point) })
	if _, err := h.rt.Run(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"run", "store.get", "store.get", "store.get"}; !slices.Equal(points, want) {
		t.Errorf("decisions at %q, want %q", points, want)
	}
	if c := h.rt.Choices(); len(c) != 0 {
		t.Errorf("choices %v, want none", c)
	}
}

// TestMutexParksWhileItsHolderIsAtABlockingPoint: the Waker's lock is held
// across a blocking point; an actor that wants it meanwhile parks instead of
// blocking its thread, and takes it once the holder lets go. A driver
// reading under it between Runs, while a cut left an actor holding it, does
// not wait and releases nothing.
func TestMutexParksWhileItsHolderIsAtABlockingPoint(t *testing.T) {
	rt := NewRuntime(Stream(1, LabelInterleave))
	mu := rt.NewMutex()
	var order []string
	rt.Go("holder", func() {
		mu.Lock()
		order = append(order, "holder locked")
		rt.Block("inside")
		order = append(order, "holder unlocks")
		mu.Unlock()
	})
	rt.Go("waiter", func() {
		mu.Lock()
		order = append(order, "waiter locked")
		mu.Unlock()
	})
	rt.SetPrepare(func() (*rand.Rand, []string) { return Stream(1, "run"), []string{"holder", "waiter"} })
	parked, err := rt.Run()
	if err != nil || len(parked) != 0 {
		t.Fatalf("Run: parked %v, %v", parked, err)
	}
	if want := []string{"holder locked", "holder unlocks", "waiter locked"}; !slices.Equal(order, want) {
		t.Errorf("ran %v, want %v", order, want)
	}

	rt.Go("cut", func() {
		mu.Lock()
		rt.Block("inside")
		mu.Unlock()
	})
	rt.SetPrepare(nil)
	rt.OnSwitch(func(_, _, point string) {
		if point == "inside" {
			rt.Stop()
		}
	})
	if _, err := rt.Run(); err != nil {
		t.Fatal(err)
	}
	mu.Lock() // the driver: held by the cut actor, so it borrows
	mu.Unlock()
	rt.OnSwitch(nil)
	rt.Kill() // unwinds the holder, whose deferred-free Unlock never runs
	if m := mu.(*mutex); !m.held || m.borrowed != 0 {
		t.Errorf("after the driver's borrow: held %v, borrowed %d; want still held by the cut actor, nothing borrowed", m.held, m.borrowed)
	}
}

// TestPCTChangePointAfterAStoreRead: a PCT Run with a change point to spend
// spends it at the j-th contested point right after an intent-store read,
// demoting the actor about to run there below every other.
func TestPCTChangePointAfterAStoreRead(t *testing.T) {
	for seed := range uint64(20) {
		p := &PCT{Depth: 2, Steps: PCTSteps}
		p.Begin(Stream(seed, "pct"))
		if len(p.changes) != 0 || p.readChange < 1 || p.readChange > pctReadSteps {
			t.Fatalf("seed %d: changes %v, read change %d: want none and one in 1..%d", seed, p.changes, p.readChange, pctReadSteps)
		}
		runnable := []string{"a", "b"}
		first := p.Pick(runnable, -1)
		for read := 1; read <= pctReadSteps; read++ {
			p.Pick(runnable, first) // a plain point: the top actor goes on
			p.ReadReturned()
			got := p.Pick(runnable, first)
			if read < p.readChange && got != first {
				t.Fatalf("seed %d: switched at read %d, before the change point at %d", seed, read, p.readChange)
			}
			if read == p.readChange {
				if got == first {
					t.Fatalf("seed %d: no switch at read %d, the change point", seed, read)
				}
				break
			}
		}
	}
	d1 := &PCT{Depth: 1, Steps: PCTSteps}
	d1.Begin(Stream(1, "pct"))
	if d1.readChange != 0 {
		t.Errorf("depth 1 spent a change point: %d", d1.readChange)
	}
}

// TestHostRestartWaitsForOperationsHeldAfterACall: a cut counted to a
// decision where an operation is held right after a call returned lands at
// the next decision where none is. Counted to b's first read, while a is
// held after its own, the cut waits until a runs again (b has finished by
// then): one operation is cut, not two.
func TestHostRestartWaitsForOperationsHeldAfterACall(t *testing.T) {
	h := newQuietHost(t)
	ctx := context.Background()
	for _, name := range []string{"#90.a", "#91.b"} {
		h.rt.Go(name, func() {
			for range 3 {
				h.stores.sched.Get(ctx, h.backends.names[0])
			}
		})
	}
	// a reads and is held after its first read returned while b makes its
	// first call: the third counted decision (run, a's get, b's get).
	h.SetSchedule([]string{"a", "a", "b"})
	v := h.StepCut(3)
	if v != nil {
		t.Fatal(v)
	}
	var at string
	for _, l := range h.trace.Lines() {
		if strings.Contains(l, "host-restart") {
			at = l
		}
	}
	if !strings.Contains(at, " cut=1") {
		t.Errorf("restart %q: want one operation cut, past the decisions where a was held after its read", at)
	}
}
