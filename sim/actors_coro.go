package sim

import (
	"fmt"
	"iter"
	"runtime"
	"runtime/debug"
	"slices"
	"sync/atomic"
)

// Every actor runs on a coroutine (iter.Pull), and the goroutine that calls
// Run or Kill (the driver) resumes them one at a time: an actor at a
// blocking point picks who runs next and yields that actor to the driver,
// which resumes it. Two coroutine switches replace a channel hand-off that
// woke a goroutine through the Go scheduler (and often another core); the
// decisions are taken where they were, in the same order, so nothing a run
// decides or prints changes.
//
// The runtime keeps runtime.Goexit as the way an actor is unwound (Kill, a
// watchdog's Abandon): defers run and recover cannot stop it. A coroutine
// that ends through Goexit passes it to whoever resumed it, so the
// coroutine of an actor unwound that way hands the baton back from inside
// the unwinding (coro.loop) and a goroutine of its own finishes it
// (finish); only an abandoned run lets Goexit reach the driver, whose
// goroutine is meant to end then.

// coro is a coroutine that runs actors one after another: when its actor
// ends it waits in the pool (actors_pool.go) for the next one.
type coro struct {
	resume func() (*actor, bool)
	stop   func()
	yield  func(*actor) bool // set by the coroutine itself as it starts
	r      *Runtime
	a      *actor // the actor it runs; nil once that one has ended
	to     *actor // who runs after a: exit's pick
	// poisoned: a ended through Goexit, which is still unwinding the
	// coroutine (finish ends it).
	poisoned bool
	state    atomic.Int32
	// idle marks a pooled coroutine the pool's janitor has already seen
	// idle once (actors_pool.go).
	idle bool
}

// A coroutine's state, for Abandon, which unwinds from the watchdog's
// goroutine only the coroutines no one is running.
const (
	coroFree      int32 = iota // in the pool, or between two actors
	coroSuspended              // its actor waits at a blocking point
	coroRunning                // resumed by the driver
	coroReaped                 // taken by Abandon to be unwound
)

func newCoro() *coro {
	c := &coro{}
	c.resume, c.stop = iter.Pull(c.loop)
	return c
}

// loop is the coroutine's body: run the actor it is given, yield who runs
// next, wait for the next actor.
func (c *coro) loop(yield func(*actor) bool) {
	c.yield = yield
	stopped := false
	defer func() {
		if stopped || c.r.abandoned.Load() {
			return // stopped in the pool, or Goexit ends the abandoned run's driver
		}
		// The actor ended through Goexit, which is unwinding this
		// coroutine: pass the baton on from here, mid-unwind, so that the
		// Goexit does not reach the driver.
		c.poisoned = true
		yield(c.to)
	}()
	for {
		c.r.runActor(c, c.a)
		c.a = nil
		if !yield(c.to) {
			stopped = true
			return
		}
	}
}

// finish lets a poisoned coroutine's Goexit run to its end on a goroutine
// of its own, which that Goexit then ends.
func (c *coro) finish() { go c.stop() }

// drive resumes actors, starting with to, until the baton comes back to
// the driver (nil).
func (r *Runtime) drive(to *actor) {
	for to != nil {
		if r.abandoned.Load() {
			r.reap()
			runtime.Goexit() // the abandoned run's driver ends here
		}
		c := to.coro
		if c == nil {
			c = takeCoro()
			c.r, c.a, to.coro, to.state = r, to, c, actorReady
			c.state.Store(coroSuspended)
			r.attach(c)
		}
		if !c.state.CompareAndSwap(coroSuspended, coroRunning) {
			runtime.Goexit() // Abandon took it: the run is over
		}
		r.current = to
		next, _ := c.resume()
		switch {
		case c.poisoned:
			r.detach(c)
			c.finish()
		case c.a == nil: // its actor ended; the coroutine waits for another
			r.detach(c)
			c.r = nil
			c.state.Store(coroFree)
			putCoro(c)
		default:
			c.state.Store(coroSuspended)
		}
		to = next
	}
	r.current = nil
}

// suspend hands the baton from the running actor a to to (nil: the
// driver) and returns when a runs again; it unwinds a there when Kill
// asked, or when Abandon stopped its coroutine (the yield is refused).
func (r *Runtime) suspend(a, to *actor) {
	if !a.coro.yield(to) || a.dying {
		runtime.Goexit()
	}
}

// runActor runs a's body on c and leaves in c.to who runs next.
func (r *Runtime) runActor(c *coro, a *actor) {
	defer func() { c.to = r.exit(a, recover()) }()
	a.fn()
	a.returned = true
}

// exit runs as the actor's body ends, however it ends (p is what it
// panicked with), and returns who runs next (nil: the driver).
func (r *Runtime) exit(a *actor, p any) *actor {
	if r.abandoned.Load() {
		runtime.Goexit() // touch nothing: the run is over, and so is its driver
	}
	switch {
	case p != nil && a.dying:
		if r.killErr == nil {
			r.killErr = &ActorPanicError{Actor: a.name, Value: p, Stack: debug.Stack()}
		}
	case p != nil:
		r.err = &ActorPanicError{Actor: a.name, Value: p, Stack: debug.Stack()}
	case !a.returned && !a.dying:
		r.err = fmt.Errorf("%w: actor %q", ErrActorGoexit, a.name)
	}
	r.retire(a)
	r.quietAgain()
	if r.killing {
		return nil
	}
	return r.pick(a, "exit")
}

// attach and detach keep r.coros, the coroutines Abandon may unwind.
func (r *Runtime) attach(c *coro) {
	r.corosMu.Lock()
	r.coros = append(r.coros, c)
	r.corosMu.Unlock()
}

func (r *Runtime) detach(c *coro) {
	r.corosMu.Lock()
	if i := slices.Index(r.coros, c); i >= 0 {
		r.coros = slices.Delete(r.coros, i, i+1)
	}
	r.corosMu.Unlock()
}

// reap unwinds, each on a goroutine of its own, the coroutines of the
// abandoned run that no one is running: their yield is refused, so their
// actors Goexit at their blocking points, and the goroutine stopping each
// ends with it. Safe to call from any goroutine, more than once.
func (r *Runtime) reap() {
	r.corosMu.Lock()
	cs := slices.Clone(r.coros)
	r.corosMu.Unlock()
	for _, c := range cs {
		if c.state.CompareAndSwap(coroSuspended, coroReaped) {
			go c.stop()
		}
	}
}
