package sim

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// Runs one after another reuse the actor coroutines of the runs before
// them instead of starting one per actor, and the pooled coroutines end
// once they have idled through a janitor round.
func TestActorGoroutinesArePooled(t *testing.T) {
	const runs = 200
	before := corosStarted.Load()
	ran := 0
	for i := range runs {
		r := NewRuntime(Stream(uint64(i+1), LabelInterleave))
		r.Go("a", func() { r.Block("x"); ran++ })
		r.Go("b", func() { r.Block("y"); ran++ })
		if parked, err := r.Run(); err != nil || len(parked) != 0 {
			t.Fatalf("run %d: parked %v, err %v", i, parked, err)
		}
	}
	if ran != 2*runs {
		t.Fatalf("%d actor bodies finished, want %d", ran, 2*runs)
	}
	// Two actors that interleave need two coroutines at once; every later
	// run finds them idle.
	if started := corosStarted.Load() - before; started > 2 {
		t.Fatalf("%d coroutines started for %d runs of two actors: the pool is not reused", started, runs)
	}
	deadline := time.Now().Add(20 * idleWorkerLife)
	for countWorkers() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d idle actor coroutines still alive after %v", countWorkers(), 20*idleWorkerLife)
		}
		time.Sleep(idleWorkerLife / 5)
	}
}

// countWorkers counts the goroutines of actor coroutines (one loop frame
// each).
func countWorkers() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	return strings.Count(string(buf), "sim.(*coro).loop(")
}
