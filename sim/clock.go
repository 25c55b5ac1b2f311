package sim

import (
	"container/heap"
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/benbjohnson/clock"
)

// MaxFiresPerAdvance bounds how many sim timers one AdvanceTo may fire. A
// timer that keeps re-arming itself at the current instant would otherwise
// hang the run; hitting the bound panics naming it.
const MaxFiresPerAdvance = 1 << 20

// Clock is the simulation's virtual clock. It implements clock.Clock so it
// can be handed to the system under test in place of clock.New(), but only
// its reads are meant for the SUT:
//
//   - Now, Since and Until read virtual time (always UTC, no monotonic
//     reading) and cost a few nanoseconds: no lock, no sleep.
//   - Time moves only when the simulator calls AdvanceTo or Advance. Sim
//     timers registered with At fire during that call, in a fixed order (due
//     time, then registration order), on the caller's goroutine, with Now set
//     to each timer's due time while it runs.
//   - Sleep panics (for d > 0): under the actor runtime nothing else runs
//     while a goroutine sleeps, so virtual time would never reach the wake-up
//     and the run would hang. Waits belong to the simulator (At).
//   - After, AfterFunc, Timer, Ticker, Tick, WithDeadline and WithTimeout
//     exist for compatibility only. clock.Timer has unexported fields, so
//     they are served by an internal *clock.Mock, created on first use and
//     then moved along with virtual time (before each sim timer fires and at
//     the end of each AdvanceTo). Every such move costs clock.Mock's 1 ms
//     real sleep, and its AfterFunc callbacks run on goroutines the actor
//     runtime does not schedule, so they are not deterministic. TimerUses
//     counts calls so a harness can assert the SUT made none.
//
// Methods are safe for concurrent use; AdvanceTo and Advance must be called
// from one goroutine at a time (the driver).
type Clock struct {
	nowNanos atomic.Int64 // virtual now, Unix nanoseconds
	// loc is the location Now reads in: start's. Production clock.New()
	// reads local time, so a SUT that compares times with == instead of
	// Equal, or loses the location through a store, must meet one.
	loc *time.Location

	mu     sync.Mutex // guards timers and seq
	timers simTimers
	seq    uint64

	mockMu    sync.Mutex  // guards mock and serialises its moves
	mock      *clock.Mock // nil until a clock.Clock timer method is used
	timerUses atomic.Int64
}

var _ clock.Clock = (*Clock)(nil)

// NewClock returns a clock reading start, in start's location. start must
// lie within the years 1678–2262 (Unix nanoseconds in an int64).
func NewClock(start time.Time) *Clock {
	c := &Clock{loc: start.Location()}
	c.nowNanos.Store(unixNanos(start))
	return c
}

func unixNanos(t time.Time) int64 {
	const maxSec = math.MaxInt64 / int64(time.Second)
	if s := t.Unix(); s >= maxSec || s <= -maxSec {
		panic(fmt.Sprintf("sim: time %v outside the clock's range (years 1678-2262)", t))
	}
	return t.UnixNano()
}

// Now returns the virtual time, in the location of the clock's start.
func (c *Clock) Now() time.Time { return time.Unix(0, c.nowNanos.Load()).In(c.loc) }

// Since returns the virtual time elapsed since t.
func (c *Clock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// Until returns the virtual time left until t.
func (c *Clock) Until(t time.Time) time.Duration { return t.Sub(c.Now()) }

// At registers fn to run when virtual time reaches t. A t at or before Now
// fires on the next AdvanceTo without moving time back. fn runs on the
// goroutine calling AdvanceTo and may call At itself. cancel removes the timer
// if it has not fired; it is safe to call more than once.
func (c *Clock) At(t time.Time, fn func()) (cancel func()) {
	tm := &simTimer{due: unixNanos(t), fn: fn}
	c.mu.Lock()
	tm.seq = c.seq
	c.seq++
	heap.Push(&c.timers, tm)
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if tm.index >= 0 {
			heap.Remove(&c.timers, tm.index)
		}
	}
}

// NextDue returns the due time of the earliest pending sim timer (timers of
// the compatibility methods are not included).
func (c *Clock) NextDue() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.timers) == 0 {
		return time.Time{}, false
	}
	return time.Unix(0, c.timers[0].due).In(c.loc), true
}

// Pending is the number of sim timers not yet fired or cancelled.
func (c *Clock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// Advance is AdvanceTo(Now().Add(d)).
func (c *Clock) Advance(d time.Duration) {
	if d < 0 {
		panic(fmt.Sprintf("sim: Clock.Advance(%v): virtual time never moves back", d))
	}
	c.AdvanceTo(c.Now().Add(d))
}

// AdvanceTo fires every sim timer due at or before t, in order of due time
// then registration, setting Now to each one's due time as it fires, and then
// sets Now to t. Timers registered by a firing timer fire in the same call if
// due by t. It panics if t is before Now or after MaxFiresPerAdvance fires.
func (c *Clock) AdvanceTo(t time.Time) {
	target := unixNanos(t)
	if now := c.nowNanos.Load(); target < now {
		panic(fmt.Sprintf("sim: Clock.AdvanceTo(%v) is before Now %v: virtual time never moves back",
			t.UTC(), time.Unix(0, now).UTC()))
	}
	for fired := 0; ; fired++ {
		c.mu.Lock()
		if len(c.timers) == 0 || c.timers[0].due > target {
			c.mu.Unlock()
			break
		}
		tm := heap.Pop(&c.timers).(*simTimer)
		if tm.due > c.nowNanos.Load() {
			c.nowNanos.Store(tm.due)
		}
		c.mu.Unlock()
		if fired >= MaxFiresPerAdvance {
			panic(fmt.Sprintf("sim: Clock.AdvanceTo fired MaxFiresPerAdvance (%d) timers without reaching %v",
				MaxFiresPerAdvance, t.UTC()))
		}
		c.syncMock()
		tm.fn()
	}
	c.nowNanos.Store(target)
	c.syncMock()
}

// Sleep panics for d > 0; see the Clock doc. d <= 0 returns at once.
func (c *Clock) Sleep(d time.Duration) {
	if d <= 0 {
		return
	}
	panic(fmt.Sprintf("sim: Clock.Sleep(%v): under simulation only one goroutine runs, so virtual "+
		"time cannot advance while it sleeps; the system under test must only read Now and leave "+
		"waiting to the simulator (Clock.At)", d))
}

// TimerUses counts calls to the compatibility timer methods (After,
// AfterFunc, Timer, Ticker, Tick, WithDeadline, WithTimeout).
func (c *Clock) TimerUses() int { return int(c.timerUses.Load()) }

// After is served by the internal clock.Mock; see the Clock doc.
func (c *Clock) After(d time.Duration) <-chan time.Time { return c.useMock().After(d) }

// AfterFunc is served by the internal clock.Mock; see the Clock doc.
func (c *Clock) AfterFunc(d time.Duration, f func()) *clock.Timer {
	return c.useMock().AfterFunc(d, f)
}

// Tick is served by the internal clock.Mock; see the Clock doc.
func (c *Clock) Tick(d time.Duration) <-chan time.Time { return c.useMock().Tick(d) }

// Ticker is served by the internal clock.Mock; see the Clock doc.
func (c *Clock) Ticker(d time.Duration) *clock.Ticker { return c.useMock().Ticker(d) }

// Timer is served by the internal clock.Mock; see the Clock doc.
func (c *Clock) Timer(d time.Duration) *clock.Timer { return c.useMock().Timer(d) }

// WithDeadline is served by the internal clock.Mock; see the Clock doc.
func (c *Clock) WithDeadline(parent context.Context, d time.Time) (context.Context, context.CancelFunc) {
	return c.useMock().WithDeadline(parent, d)
}

// WithTimeout is served by the internal clock.Mock; see the Clock doc.
func (c *Clock) WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return c.useMock().WithTimeout(parent, d)
}

// useMock counts a compatibility call and returns the mock, created on first
// use and brought to virtual now so that durations start from the right time.
func (c *Clock) useMock() *clock.Mock {
	c.timerUses.Add(1)
	c.mockMu.Lock()
	if c.mock == nil {
		c.mock = clock.NewMock()
	}
	c.mockMu.Unlock()
	c.syncMock()
	return c.mock
}

// syncMock moves the mock, if any, to virtual now. Only clocks whose SUT used
// a compatibility method pay clock.Mock's 1 ms sleep.
func (c *Clock) syncMock() {
	c.mockMu.Lock()
	defer c.mockMu.Unlock()
	if c.mock == nil {
		return
	}
	if now := c.Now(); !c.mock.Now().Equal(now) {
		c.mock.Set(now)
	}
}

// simTimer is one At registration.
type simTimer struct {
	due   int64 // Unix nanoseconds
	seq   uint64
	fn    func()
	index int // position in the heap; -1 once fired or cancelled
}

// simTimers is a min-heap by (due, seq): equal due times fire in
// registration order, never in map or goroutine order.
type simTimers []*simTimer

func (h simTimers) Len() int { return len(h) }
func (h simTimers) Less(i, j int) bool {
	if h[i].due != h[j].due {
		return h[i].due < h[j].due
	}
	return h[i].seq < h[j].seq
}
func (h simTimers) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}
func (h *simTimers) Push(x any) {
	tm := x.(*simTimer)
	tm.index = len(*h)
	*h = append(*h, tm)
}
func (h *simTimers) Pop() any {
	old := *h
	tm := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	tm.index = -1
	return tm
}
