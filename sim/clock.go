package sim

import (
	"container/heap"
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
// can be handed to the system under test in place of clock.New():
//
//   - Now, Since and Until read virtual time (always UTC offsets of the
//     start's location, no monotonic reading) and cost a few nanoseconds.
//   - Time moves only when the simulator calls AdvanceTo or Advance. Every
//     timer due by then fires during that call, in a fixed order: due time,
//     then creation order, with Now set to each timer's due time as it
//     fires.
//   - Harness timers (At) run on the goroutine calling AdvanceTo.
//   - The system under test's timers are native (clock_native.go):
//     AfterFunc, Timer, After, WithDeadline and WithTimeout are virtual, and
//     when they fire their callback (the channel send, the context's
//     cancel) is handed to the spawn function (SetSpawn): the simulator
//     starts it as an actor, under the same baton as every other actor.
//     A timer due at creation (d <= 0) fires at the next AdvanceTo, never
//     on a goroutine of its own. What cannot be simulated (Ticker, Tick,
//     Timer.Reset) is recorded as an escape (Escapes) for the run to fail.
//   - Sleep panics (for d > 0): under the actor runtime nothing else runs
//     while a goroutine sleeps, so virtual time would never reach the
//     wake-up and the run would hang.
//
// Methods are safe for concurrent use; AdvanceTo and Advance must be called
// from one goroutine at a time (the driver, or the actor holding the baton).
type Clock struct {
	nowNanos atomic.Int64 // virtual now, Unix nanoseconds
	// loc is the location Now reads in: start's. Production clock.New()
	// reads local time, so a SUT that compares times with == instead of
	// Equal, or loses the location through a store, must meet one.
	loc *time.Location

	mu     sync.Mutex // guards timers, seq, spawn, escapes and handles
	timers simTimers
	seq    uint64
	// spawn starts a native timer's callback; nil runs it on the caller of
	// AdvanceTo (a clock used without an actor runtime).
	spawn   func(label string, fn func())
	escapes []string
	// handles is the never-moved clock.Mock that issues the *clock.Timer
	// values native timers return (clock_native.go).
	handles   *clock.Mock
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
	c.pushLocked(tm)
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if tm.index >= 0 {
			heap.Remove(&c.timers, tm.index)
		}
	}
}

// NextDue returns the due time of the earliest pending timer, harness or
// native (a native timer its holder stopped is not pending).
func (c *Clock) NextDue() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropStoppedLocked()
	if len(c.timers) == 0 {
		return time.Time{}, false
	}
	return time.Unix(0, c.timers[0].due).In(c.loc), true
}

// Pending is the number of timers not yet fired, cancelled or stopped.
func (c *Clock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, tm := range c.timers {
		if !tm.stopped() {
			n++
		}
	}
	return n
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
		c.fire(tm)
	}
	c.nowNanos.Store(target)
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

// simTimer is one timer: a harness At registration, or a native timer of
// the system under test (handle non-nil).
type simTimer struct {
	due   int64 // Unix nanoseconds
	seq   uint64
	fn    func()
	index int // position in the heap; -1 once fired or cancelled
	// native timers only: the handle the SUT holds, and the label its
	// actor is spawned under.
	handle *clock.Timer
	label  string
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
