package sim

import (
	"sync/atomic"
	"time"
)

// Actor goroutines are pooled across Runs and hosts. A sweep starts about
// thirty actors a scenario, and a fresh goroutine for each cost its start,
// the growth of its stack (presizeStack) and the copy that growth makes:
// a tenth of a default run's CPU by the profile's frames, though paired
// runs measure less (a median 1.4% of a 4,000-seed sweep, six pairs; 4%
// of the harness alone, four pairs, in a wide spread). A goroutine
// whose actor has passed the baton on waits here, idle, for the next
// actor any Runtime starts, and keeps the stack it grew.
//
// Which goroutine runs an actor decides nothing: only the baton does, so
// the pool changes no interleaving, draw or output. An idle goroutine ends
// after idleWorkerLife without work, so that a test checking for leaked
// goroutines (goleak retries for about a second) sees none once the runs
// are over; a killed actor's goroutine ends with it (runtime.Goexit), as
// before.

// idleWorkerLife is how long an idle actor goroutine waits for work
// before it ends. It is wall time, on purpose: it bounds how long an idle
// goroutine outlives the runs, and it reaches no decision of any run.
const idleWorkerLife = 50 * time.Millisecond

// workerTask is an actor to run and the runtime it belongs to.
type workerTask struct {
	r *Runtime
	a *actor
}

// idleWorkers hands a task to a goroutine waiting in workerLoop. It is
// unbuffered: a send succeeds only when a worker is waiting at that
// moment, so no task is ever left in it for a worker that has timed out.
var idleWorkers = make(chan workerTask)

// workersStarted counts the actor goroutines ever started, for the test
// that the pool reuses them.
var workersStarted atomic.Int64

// startActor runs a, whose state the caller has made ready, on an idle
// pooled goroutine, or on a new one when none waits.
func startActor(r *Runtime, a *actor) {
	select {
	case idleWorkers <- workerTask{r, a}:
	default:
		workersStarted.Add(1)
		go workerLoop(workerTask{r, a})
	}
}

// workerLoop runs t's actor (and the new actors it chains to, see main),
// then waits for the next task until idleWorkerLife passes without one.
func workerLoop(t workerTask) {
	var idle *time.Timer
	for {
		t.r.main(t.a)
		t = workerTask{} // hold no runtime while idle
		if idle == nil {
			idle = time.NewTimer(idleWorkerLife)
		} else {
			idle.Reset(idleWorkerLife)
		}
		select {
		case t = <-idleWorkers:
			idle.Stop()
		case <-idle.C:
			return
		}
	}
}
