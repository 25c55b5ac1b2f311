package sim

import (
	"context"
	"sync"

	"github.com/syncsim/syncsim/workspace"
)

// NewMutex returns a sync.Locker for code that runs as actors of r and
// holds a lock across a blocking point: the production Waker lists the
// store (a blocking point on both sides) while it holds the lock that
// serialises arming (scheduler.Waker.Locker). A sync.Mutex there would
// block the thread of an actor that wants the lock while the holder is
// parked, and with it the baton: the run would hang. This one parks the
// waiting actor on a gate instead, and Unlock makes the waiters runnable
// again, without switching; whoever of them runs first takes it.
//
// The driver may take the lock between Runs, never waiting: when an actor
// a cut left parked holds it (a host restart then unwinds that actor),
// the driver's Lock returns at once without taking it, and the matching
// Unlock releases nothing, so a driver that only reads under the lock (the
// Waker's Next, for the trace) sees the state the holder left at its
// blocking point.
func (r *Runtime) NewMutex() sync.Locker { return &mutex{r: r} }

type mutex struct {
	r        *Runtime
	held     bool
	waiters  []workspace.Gate // in the order they came
	borrowed int              // driver Locks that found it held
}

func (m *mutex) Lock() {
	for m.held {
		a := m.r.current
		switch {
		case a == nil:
			m.borrowed++
			return
		case a.dying:
			panic("sim: mutex locked by an actor being unwound while another actor holds it")
		}
		g := m.r.NewGate()
		m.waiters = append(m.waiters, g)
		if err := g.Wait(context.Background()); err != nil {
			panic("sim: waiting for a mutex: " + err.Error())
		}
	}
	m.held = true
}

func (m *mutex) Unlock() {
	if m.borrowed > 0 && m.r.current == nil {
		m.borrowed--
		return
	}
	if !m.held {
		panic("sim: unlock of an unlocked mutex")
	}
	m.held = false
	// Every waiter goes back to the race for it: one woken alone could be
	// an actor a Kill already unwound, and the rest would wait forever.
	for _, g := range m.waiters {
		g.Open()
	}
	m.waiters = m.waiters[:0]
}
