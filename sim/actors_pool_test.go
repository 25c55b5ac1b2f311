package sim

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// Runs one after another reuse the actor goroutines of the runs before
// them instead of starting one per actor, and the pooled goroutines end
// once they have idled for idleWorkerLife.
func TestActorGoroutinesArePooled(t *testing.T) {
	const runs = 200
	before := workersStarted.Load()
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
	// Two actors that interleave need two goroutines at once; every later
	// run finds them idle. A few more may start when a goroutine has not
	// reached its idle wait by the time the next run starts one.
	if started := workersStarted.Load() - before; started > runs/4 {
		t.Fatalf("%d goroutines started for %d runs of two actors: the pool is not reused", started, runs)
	}
	deadline := time.Now().Add(20 * idleWorkerLife)
	for countWorkers() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d idle actor goroutines still alive after %v", countWorkers(), 20*idleWorkerLife)
		}
		time.Sleep(idleWorkerLife / 5)
	}
}

// countWorkers counts the goroutines inside workerLoop (one frame each).
func countWorkers() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	return strings.Count(string(buf), "sim.workerLoop(")
}
