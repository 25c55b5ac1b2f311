package sim

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
)

// Every actor parked on a gate nobody will open is the deterministic
// no-deadlock: reported at the end of the step, with the parked goroutines'
// stacks (outside the trace), and the same trace every time.
func TestDeadlockIsReportedWithStacks(t *testing.T) {
	var hashes []string
	for range 2 {
		h, err := NewHost(judged(Config{Seed: 1, Backends: 1, Profile: faults.Off()}))
		if err != nil {
			t.Fatal(err)
		}
		g := h.rt.NewGate()
		h.rt.Go("#1.stuck.b0", func() { _ = g.Wait(h.ctx) })
		v := h.Step()
		if v == nil || v.Property != "no-deadlock" {
			t.Fatalf("Step = %v, want no-deadlock", v)
		}
		if !strings.Contains(v.Detail, "#1.stuck.b0") || !strings.Contains(v.Stacks, "TestDeadlockIsReportedWithStacks") {
			t.Errorf("detail %q or stacks do not name the parked actor:\n%s", v.Detail, v.Stacks)
		}
		if strings.Contains(strings.Join(h.Trace().Lines(), "\n"), "goroutine") {
			t.Errorf("stacks leaked into the trace")
		}
		hashes = append(hashes, h.Trace().Hash())
		if err := h.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if hashes[0] != hashes[1] {
		t.Errorf("a deadlock is not deterministic: %s vs %s", hashes[0], hashes[1])
	}
}

// An actor blocked for real (here on a mutex another actor holds across a
// blocking point) stops all progress: Watch gives up after the timeout,
// Hang reports property hang with the stuck goroutine's stack and a trace
// line, and Abandon unwinds the rest, so only the blocked goroutine could
// stay behind — here not even it, since unwinding the holder unlocks.
func TestWatchReportsAHangAndAbandonUnwinds(t *testing.T) {
	h, err := NewHost(judged(Config{Seed: 1, Backends: 1, Profile: faults.Off()}))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	g := h.rt.NewGate()
	h.rt.Go("#1.a.b0", func() {
		mu.Lock()
		defer mu.Unlock()
		_ = g.Wait(h.ctx) // parked holding mu: b runs next
	})
	h.rt.Go("#2.b.b0", func() {
		mu.Lock() // blocks for real; nothing ever opens g
		defer mu.Unlock()
		g.Open()
	})
	// a must take the lock first, whatever the seed's strategy draws.
	h.SetSchedule([]string{"a.b0", "b.b0"})
	start := time.Now()
	finished := Watch(200*time.Millisecond, h.Progress, func() { h.Step() })
	if finished {
		t.Fatal("Watch: the run finished, want a hang")
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Watch took %s to give up after 200ms", took)
	}
	v := h.Hang(200 * time.Millisecond)
	if v.Property != "hang" || !strings.Contains(v.Stacks, "sync.(*Mutex).Lock") {
		t.Errorf("Hang = %s, stacks:\n%s", v, v.Stacks)
	}
	if tr := strings.Join(h.Trace().Lines(), "\n"); !strings.Contains(tr, "violation") || !strings.Contains(tr, "property=hang") {
		t.Errorf("trace lacks the hang:\n%s", tr)
	}
	// The hang reached the run's violation as a failure the history
	// records and the judge reports (oracle.DriverChecker).
	events := h.History().Events()
	if last := events[len(events)-1]; last.Kind != history.DriverFailed || last.Driver.Property != "hang" {
		t.Errorf("the history ends with %s, want the hang's DriverFailed", last.Kind)
	}
	if h.Violation() != v || !strings.Contains(v.Detail, "200ms of wall time") {
		t.Errorf("the run's violation is %v, want the reported hang with its wall time", h.Violation())
	}
	// goleak (TestMain) checks that every goroutine of the run has ended.
}
