package sim

import (
	"sync"
	"sync/atomic"
	"time"
)

// Actor coroutines are pooled across Runs and hosts. A sweep starts about
// forty actors a scenario (150,250 over 4,000 seeds), and a fresh
// coroutine for each costs a goroutine's start and the growth of its stack
// (presizeStack) and the copy that growth makes. A coroutine whose actor
// has ended waits here, idle, for the next actor any Runtime starts, and
// keeps the stack it grew.
//
// Which coroutine runs an actor decides nothing: only the baton does, so
// the pool changes no interleaving, draw or output. A janitor ends the
// coroutines that stayed idle through one of its rounds (idleWorkerLife
// apart), so that a test checking for leaked goroutines (goleak retries
// for about a second) sees none once the runs are over; a coroutine whose
// actor was unwound (Kill, Abandon) ends with it.

// idleWorkerLife is how often the pool's janitor runs: a coroutine idle
// through a whole round ends. It is wall time, on purpose: it bounds how
// long an idle coroutine outlives the runs, and it reaches no decision of
// any run.
const idleWorkerLife = 50 * time.Millisecond

// coroPool holds the idle coroutines, the most recently used last.
var coroPool struct {
	mu      sync.Mutex
	idle    []*coro
	janitor bool // a janitor round is scheduled
}

// corosStarted counts the coroutines ever started, for the test that the
// pool reuses them.
var corosStarted atomic.Int64

// takeCoro returns an idle coroutine, or a new one when none waits.
func takeCoro() *coro {
	coroPool.mu.Lock()
	if n := len(coroPool.idle); n > 0 {
		c := coroPool.idle[n-1]
		coroPool.idle[n-1] = nil
		coroPool.idle = coroPool.idle[:n-1]
		c.idle = false
		coroPool.mu.Unlock()
		return c
	}
	coroPool.mu.Unlock()
	corosStarted.Add(1)
	return newCoro()
}

// putCoro makes c, whose actor has ended, wait for the next one.
func putCoro(c *coro) {
	coroPool.mu.Lock()
	coroPool.idle = append(coroPool.idle, c)
	if !coroPool.janitor {
		coroPool.janitor = true
		time.AfterFunc(idleWorkerLife, sweepIdleCoros)
	}
	coroPool.mu.Unlock()
}

// sweepIdleCoros is a janitor round: it ends the coroutines that were idle
// at the last round and still are, marks the rest, and comes back while
// any is left.
func sweepIdleCoros() {
	coroPool.mu.Lock()
	var old []*coro
	keep := coroPool.idle[:0]
	for _, c := range coroPool.idle {
		if c.idle {
			old = append(old, c)
			continue
		}
		c.idle = true
		keep = append(keep, c)
	}
	clear(coroPool.idle[len(keep):])
	coroPool.idle = keep
	coroPool.janitor = len(keep) > 0
	if coroPool.janitor {
		time.AfterFunc(idleWorkerLife, sweepIdleCoros)
	}
	coroPool.mu.Unlock()
	for _, c := range old {
		c.stop() // its yield is refused: the loop returns, the coroutine ends
	}
}
