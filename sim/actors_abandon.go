package sim

import (
	"runtime"
	"slices"
)

// A real block inside an actor (a mutex held by a parked actor, a store
// call that never returns) stops the baton: no actor runs again and Run
// never returns. The runtime cannot unwind the goroutine that is blocked,
// so a watchdog on another goroutine (Watch) watches Progress and, when it
// stands still, gives the run up with Abandon: every actor waiting at a
// blocking point ends at once (its coroutine is stopped on a goroutine of
// its own and unwinds by runtime.Goexit, its defers run), and a goroutine
// that comes back from its block later ends as soon as it touches the
// runtime again, and with it the driver. Only the blocked goroutine stays
// behind, for as long as whatever blocks it, and, when it is an actor's,
// the driver's goroutine waiting for its coroutine to yield.

// Interrupt wakes the named actor if it is parked on a gate: it leaves the
// gate and becomes runnable, and its Wait returns its context's error (the
// caller cancels that context first). It reports whether the actor was
// parked. Like Go, it belongs to the running actor or the driver (the
// OnSwitch hook included).
func (r *Runtime) Interrupt(name string) bool {
	for _, a := range r.live {
		if a.name != name || a.state != actorParked {
			continue
		}
		g := a.gate
		g.waiters = slices.DeleteFunc(g.waiters, func(w *actor) bool { return w == a })
		a.state, a.gate, a.interrupted = actorReady, nil, true
		r.addRunnable(a)
		return true
	}
	return false
}

// Parked reports whether the named actor is parked on a gate.
func (r *Runtime) Parked(name string) bool {
	for _, a := range r.live {
		if a.name == name {
			return a.state == actorParked
		}
	}
	return false
}

// StoppedAt returns the blocking point at which the last Run stopped after
// Stop ("" when it did not): where the actor holding the baton was cut.
func (r *Runtime) StoppedAt() string { return r.stoppedAt }

// Progress returns how many scheduling decisions the runtime has taken over
// its whole life. Safe to call from any goroutine.
func (r *Runtime) Progress() uint64 { return r.progress.Load() }

// Abandon gives the runtime up (see above). Safe to call from any
// goroutine, more than once; the runtime must not be used afterwards.
func (r *Runtime) Abandon() {
	if r.abandoned.CompareAndSwap(false, true) {
		r.reap()
	}
}

// freezeIfAbandoned ends the calling goroutine when the runtime was
// abandoned: it belongs to a run nobody reads any more.
func (r *Runtime) freezeIfAbandoned() {
	if r.abandoned.Load() {
		runtime.Goexit()
	}
}
