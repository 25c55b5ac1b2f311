package sim

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/workspace"
)

// plantEndlessPull starts the planted bug on h: an actor that pulls b0
// until a pull reports a path no pull ever reports, so it pulls forever.
// Every pull finishes and every call in it is a blocking point: the
// actors keep switching and no operation ever finishes.
func plantEndlessPull(h *Host, name string) {
	ws := h.stores.ws
	h.rt.Go(name, func() {
		for {
			res, _ := ws.Pull(h.ctx, "b0")
			if slices.Contains(res.Skipped, "/never") {
				return
			}
		}
	})
}

// A pull loop that never ends is the deterministic property livelock at
// the default bound, named with the actor and its last blocking point,
// the loop in the stacks, and the same trace every time; the actor is
// unwound (TestMain: no goroutine outlives the test). Without the bound
// the step runs on to the switch bound, ten times as many decisions, and
// reports no-panic.
func TestEndlessPullIsALivelock(t *testing.T) {
	var hashes []string
	for range 2 {
		h, err := NewHost(judged(Config{Seed: 1, Backends: 1, Profile: faults.Off()}))
		if err != nil {
			t.Fatal(err)
		}
		h.SpawnExec(0, workspace.SyncWait, 3) // something on the remote to pull
		if v := h.Step(); v != nil {
			t.Fatalf("the exec's step: %v", v)
		}
		plantEndlessPull(h, "#9.pull.b0")
		start := time.Now()
		v := h.Step()
		took := time.Since(start)
		if v == nil || v.Property != "livelock" {
			t.Fatalf("Step = %v, want property livelock", v)
		}
		for _, want := range []string{"100000 scheduling decisions and no actor finished", "#9.pull.b0 running at b0.", "blocking points)"} {
			if !strings.Contains(v.Detail, want) {
				t.Errorf("detail lacks %q: %s", want, v.Detail)
			}
		}
		if !strings.Contains(v.Stacks, "plantEndlessPull") {
			t.Errorf("the stacks do not show the loop:\n%s", v.Stacks)
		}
		if v.FromWatchdog() {
			t.Errorf("the bound's verdict reads as the watchdog's")
		}
		if tr := strings.Join(h.Trace().Lines(), "\n"); !strings.Contains(tr, "violation detail=\"100000 scheduling decisions") {
			t.Errorf("the trace lacks the violation")
		}
		if err := h.Close(); err != nil {
			t.Fatal(err)
		}
		hashes = append(hashes, h.Trace().Hash())
		t.Logf("reported in %s: %s", took.Round(time.Millisecond), v.Detail)
	}
	if hashes[0] != hashes[1] {
		t.Errorf("a livelock is not deterministic: %s vs %s", hashes[0], hashes[1])
	}
}

// Two actors that wake each other forever through gates are a livelock
// too, each listed with its state; the runtime alone reports it as an
// error wrapping ErrLivelock and unwinds both.
func TestRuntimeLivelockOfTwoActors(t *testing.T) {
	r := NewRuntime(Stream(1, LabelInterleave))
	r.SetLivelockSwitches(1000)
	var heard *LivelockError
	r.OnLivelock(func(e *LivelockError) { heard = e })
	ping, pong := r.NewGate(), r.NewGate()
	r.Go("ping", func() {
		for {
			pong.Open()
			ping = r.NewGate()
			if err := ping.Wait(t.Context()); err != nil {
				return
			}
		}
	})
	r.Go("pong", func() {
		for {
			ping.Open()
			pong = r.NewGate()
			if err := pong.Wait(t.Context()); err != nil {
				return
			}
		}
	})
	live, err := r.Run()
	var le *LivelockError
	if !errors.Is(err, ErrLivelock) || !errors.As(err, &le) {
		t.Fatalf("Run = %v, %v; want a livelock", live, err)
	}
	if heard != le {
		t.Errorf("the hook heard %v, Run returned %v", heard, le)
	}
	if le.Switches != 1000 || len(le.Actors) != 2 || le.Stalled != 0 {
		t.Errorf("verdict %+v, want 1000 decisions over two actors", le)
	}
	for _, a := range le.Actors {
		if a.Point != "gate" || a.Blocks < 400 {
			t.Errorf("actor %+v: want it at its gate after some 500 parks", a)
		}
	}
	if len(r.Live()) != 0 {
		t.Errorf("actors left after the failed Run: %v", r.Live())
	}
}

// The bound counts decisions since an actor last finished, not in the
// whole Run: an actor that blocks ten times the bound while others keep
// finishing is no livelock.
func TestActorsThatFinishAreNoLivelock(t *testing.T) {
	r := NewRuntime(Stream(1, LabelInterleave))
	r.SetLivelockSwitches(100)
	finished := 0
	r.Go("long", func() {
		for i := range 1000 {
			if i%40 == 0 {
				r.Go("short", func() { r.Block("short"); finished++ })
			}
			r.Block("long")
		}
	})
	if live, err := r.Run(); err != nil || len(live) != 0 {
		t.Fatalf("Run = %v, %v; want every actor finished", live, err)
	}
	if finished != 25 {
		t.Errorf("%d short actors finished, want 25", finished)
	}
}

// A livelock whose decisions are too slow to reach the bound within the
// watchdog's time is stopped by the watchdog as a livelock (not a hang):
// WatchRun sees decisions go on while no actor finishes, asks the run to
// stop, and the run ends at its next decision with the violation, marked
// as the watchdog's.
func TestWatchStopsASlowLivelock(t *testing.T) {
	h, err := NewHost(judged(Config{Seed: 1, Backends: 1, Profile: faults.Off()}))
	if err != nil {
		t.Fatal(err)
	}
	h.rt.Go("#1.spin.b0", func() {
		for {
			time.Sleep(time.Millisecond) // a slow call: far from the bound
			h.rt.Block("b0.spin")
		}
	})
	var v *Violation
	const timeout = 200 * time.Millisecond
	start := time.Now()
	if !WatchRun(timeout, func() Watched { return h }, func() { v = h.Step() }) {
		t.Fatal("WatchRun gave the run up as a hang")
	}
	if took := time.Since(start); took > 10*timeout {
		t.Errorf("the livelock took %s to stop at a %s watchdog", took, timeout)
	}
	if v == nil || v.Property != "livelock" || !v.FromWatchdog() {
		t.Fatalf("Step = %v, want the watchdog's livelock", v)
	}
	if !strings.Contains(v.Detail, "of wall time") || !strings.Contains(v.Detail, "#1.spin.b0 running at b0.spin") {
		t.Errorf("detail: %s", v.Detail)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
}

// A request from the watchdog that comes after the stall ended (an actor
// finished since it read Finished) is dropped, not obeyed.
func TestStaleLivelockRequestIsDropped(t *testing.T) {
	r := NewRuntime(Stream(1, LabelInterleave))
	r.StopLivelock(r.Finished(), time.Second)
	r.Go("a", func() { r.Block("x") }) // Run's start moves Finished on
	if live, err := r.Run(); err != nil || len(live) != 0 {
		t.Fatalf("Run = %v, %v; a stale request ended it", live, err)
	}
	if r.stallSeen.Load() != 0 {
		t.Errorf("the stale request is still pending")
	}
}
