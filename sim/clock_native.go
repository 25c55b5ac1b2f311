package sim

import (
	"container/heap"
	"context"
	"fmt"
	"reflect"
	"slices"
	"time"
	"unsafe"

	"github.com/benbjohnson/clock"
)

// Native timers: the clock.Clock timer methods the system under test calls
// (the production scheduler.Waker's AfterFunc above all) are timers of the
// virtual clock itself. They fire during AdvanceTo in the same (due,
// creation) order as the harness's own, and their callback is handed to the
// spawn function, so under a Host it runs as an actor under the baton: the
// production alarm runs in the simulation unchanged, and a run never has a
// callback on a goroutine the runtime does not schedule.
//
// clock.Timer has unexported fields, so the handles belong to a private
// clock.Mock that is never moved (it stays at the Unix epoch, every handle
// due farAway after it): its Stop works as the SUT expects, and the clock,
// when a timer is due, calls Stop itself; true means the holder had not
// stopped it, so it fires, and the holder's later Stop reports false, as
// after a real firing. The clock fills a handle's fields itself (newHandle)
// rather than have the mock issue it: the mock would also make a channel
// and keep the handle in a list that every Stop scans and sorts. What the mock would do on its own goroutines
// (Ticker, Tick, a Reset that re-registers the handle in the mock) is not
// simulated: it is recorded as an escape and the host fails the run with
// property timer-escape.

// farAway is where every handle sits in the private mock: never reached,
// since the mock is never moved.
const farAway = time.Duration(1 << 62)

// SetSpawn sets how a native timer's callback starts (label: "timer" or
// "deadline"). nil (the default) runs it on the goroutine calling AdvanceTo.
func (c *Clock) SetSpawn(spawn func(label string, fn func())) {
	c.mu.Lock()
	c.spawn = spawn
	c.mu.Unlock()
}

// Escapes lists the timer uses the clock could not simulate, in the order
// they were seen (empty for a well-behaved SUT).
func (c *Clock) Escapes() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.escapes)
}

// TimerUses counts calls to the native timer methods (After, AfterFunc,
// Timer, Ticker, Tick, WithDeadline, WithTimeout).
func (c *Clock) TimerUses() int { return int(c.timerUses.Load()) }

// DropTimers cancels every native timer not yet fired: a host crash kills
// the process that set them. Harness timers (At) stay.
func (c *Clock) DropTimers() {
	c.mu.Lock()
	defer c.mu.Unlock()
	keep := c.timers[:0]
	for _, tm := range c.timers {
		if tm.handle == nil {
			keep = append(keep, tm)
			continue
		}
		tm.handle.Stop()
		tm.index = -1
	}
	c.timers = keep
	for i, tm := range c.timers {
		tm.index = i
	}
	heap.Init(&c.timers)
}

// AfterFunc runs f as an actor once virtual time reaches Now()+d.
func (c *Clock) AfterFunc(d time.Duration, f func()) *clock.Timer {
	return c.native(d, TimerActor, f, nil)
}

// Timer sends the due time on its C once virtual time reaches Now()+d (the
// send is an actor's; a receiver must not block on C inside an actor, where
// nothing else could run meanwhile).
func (c *Clock) Timer(d time.Duration) *clock.Timer {
	return c.native(d, TimerActor, nil, func(h *clock.Timer, at time.Time) func() {
		ch := make(chan time.Time, 1)
		h.C = ch
		return func() {
			select {
			case ch <- at:
			default:
			}
		}
	})
}

// After is Timer(d).C.
func (c *Clock) After(d time.Duration) <-chan time.Time { return c.Timer(d).C }

// Ticker is not simulated: it never ticks, and the use is an escape.
func (c *Clock) Ticker(d time.Duration) *clock.Ticker {
	c.timerUses.Add(1)
	c.escape(fmt.Sprintf("Ticker(%v): periodic timers are not simulated", d))
	return c.mock().Ticker(farAway)
}

// Tick is Ticker(d).C: an escape.
func (c *Clock) Tick(d time.Duration) <-chan time.Time { return c.Ticker(d).C }

// WithDeadline returns a context cancelled with context.DeadlineExceeded
// by a native timer at d (at once when d is not after Now). Its Err is
// DeadlineExceeded once the deadline passed; NB: a context derived from it
// with the standard library reports Canceled then (it sees the inner
// cancel context, whose cause carries the deadline).
func (c *Clock) WithDeadline(parent context.Context, d time.Time) (context.Context, context.CancelFunc) {
	if cur, ok := parent.Deadline(); ok && cur.Before(d) {
		c.timerUses.Add(1)
		return context.WithCancel(parent)
	}
	inner, cancel := context.WithCancelCause(parent)
	ctx := &deadlineCtx{Context: inner, deadline: d}
	h := c.native(d.Sub(c.Now()), DeadlineActor, func() { cancel(context.DeadlineExceeded) }, nil)
	if !d.After(c.Now()) {
		h.Stop()
		cancel(context.DeadlineExceeded)
	}
	return ctx, func() {
		h.Stop()
		cancel(context.Canceled)
	}
}

// WithTimeout is WithDeadline(parent, Now()+d).
func (c *Clock) WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return c.WithDeadline(parent, c.Now().Add(d))
}

type deadlineCtx struct {
	context.Context
	deadline time.Time
}

func (x *deadlineCtx) Deadline() (time.Time, bool) { return x.deadline, true }

func (x *deadlineCtx) Err() error {
	err := x.Context.Err()
	if err != nil && context.Cause(x.Context) == context.DeadlineExceeded {
		return context.DeadlineExceeded
	}
	return err
}

// native registers a native timer due at Now()+max(d, 0) whose callback
// is fn, or, for a channel timer (fn nil), what build returns given the
// handle and the due time.
func (c *Clock) native(d time.Duration, label string, fn func(), build func(*clock.Timer, time.Time) func()) *clock.Timer {
	c.timerUses.Add(1)
	h := c.newHandle()
	due := c.Now().Add(max(d, 0))
	tm := &simTimer{due: unixNanos(due), handle: h, label: label, fn: fn}
	if fn == nil {
		tm.fn = build(h, due)
	}
	c.mu.Lock()
	c.pushLocked(tm)
	c.mu.Unlock()
	return h
}

func (c *Clock) mock() *clock.Mock {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.handles == nil {
		c.handles = clock.NewMock()
	}
	return c.handles
}

func (c *Clock) pushLocked(tm *simTimer) {
	tm.seq = c.seq
	c.seq++
	heap.Push(&c.timers, tm)
}

func (c *Clock) escape(what string) {
	c.mu.Lock()
	c.escapes = append(c.escapes, what)
	c.mu.Unlock()
}

// fire runs or spawns one timer just popped from the heap.
func (c *Clock) fire(tm *simTimer) {
	if tm.handle == nil {
		tm.fn()
		return
	}
	if tm.reset() {
		c.escape("Timer.Reset: a reset timer is not simulated")
		return
	}
	if !tm.handle.Stop() {
		return // its holder stopped it first
	}
	c.mu.Lock()
	spawn := c.spawn
	c.mu.Unlock()
	if spawn == nil {
		tm.fn()
		return
	}
	spawn(tm.label, tm.fn)
}

// dropStoppedLocked pops stopped native timers off the top of the heap, so
// that NextDue names a timer that will fire.
func (c *Clock) dropStoppedLocked() {
	for len(c.timers) > 0 && c.timers[0].stopped() {
		heap.Pop(&c.timers)
	}
}

// stopped reports whether a native timer's holder stopped it (and did not
// reset it since).
func (tm *simTimer) stopped() bool {
	if tm.handle == nil {
		return false
	}
	stopped, _ := handleState(tm.handle)
	return stopped
}

// reset reports whether the holder called Reset: the handle left farAway.
func (tm *simTimer) reset() bool {
	_, next := handleState(tm.handle)
	return !next.Equal(handleHome)
}

// newHandle returns a handle of the private mock, due farAway and not
// stopped, that the mock does not list: the mock never moves, so a listed
// handle would never fire there either, and Stop and Reset only need the
// handle's own fields and its mock's lock.
func (c *Clock) newHandle() *clock.Timer {
	t := new(clock.Timer)
	p := unsafe.Pointer(t)
	*(**clock.Mock)(unsafe.Add(p, handleMockAt)) = c.mock()
	*(*time.Time)(unsafe.Add(p, handleNextAt)) = handleHome
	return t
}

// handleHome is where every handle is due in the private mock.
var handleHome = time.Unix(0, 0).Add(farAway)

// handleState reads a handle's stopped flag and mock due time. The fields
// are clock.Timer's own (v1.3.5); TestClockHandleFields fails if they move
// (and handleField panics as the package starts).
// Only the goroutine holding the baton touches a handle, so no lock.
func handleState(t *clock.Timer) (stopped bool, next time.Time) {
	p := unsafe.Pointer(t)
	return *(*bool)(unsafe.Add(p, handleStoppedAt)), *(*time.Time)(unsafe.Add(p, handleNextAt))
}

// handleStoppedAt, handleNextAt and handleMockAt are the offsets of
// clock.Timer's stopped, next and mock fields, looked up once: by name at
// every read, the lookup cost more than the rest of a timer's handling.
var (
	handleStoppedAt = handleField("stopped", reflect.TypeFor[bool]())
	handleNextAt    = handleField("next", reflect.TypeFor[time.Time]())
	handleMockAt    = handleField("mock", reflect.TypeFor[*clock.Mock]())
)

func handleField(name string, want reflect.Type) uintptr {
	f, ok := reflect.TypeFor[clock.Timer]().FieldByName(name)
	if !ok || f.Type != want {
		panic(fmt.Sprintf("sim: clock.Timer has no field %s of type %v (the clock library changed)", name, want))
	}
	return f.Offset
}
