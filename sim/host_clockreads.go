package sim

import "time"

// sutClock is the clock the workspace reads: the run's virtual clock, and
// every read reported to the actor runtime, whose strategy may place a tick
// right after it (PCT.placeEvent). The harness's own reads (trace stamps,
// the store's call record, the tick itself) go to the clock directly and
// are not reported.
type sutClock struct {
	*Clock
	h *Host // its runtime is read at each call: a host start may replace it
}

// Now reads the clock.
func (c sutClock) Now() time.Time {
	c.h.rt.ClockRead()
	return c.Clock.Now()
}

// Since is Now().Sub(t), one read.
func (c sutClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// Until is t.Sub(Now()), one read.
func (c sutClock) Until(t time.Time) time.Duration { return t.Sub(c.Now()) }
