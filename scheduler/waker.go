package scheduler

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/benbjohnson/clock"

	"github.com/syncsim/syncsim/scheduler/internal/plant"
)

// FireFunc is called when the alarm goes off, with the sorted backends that
// are due. A host hands each to Workspace.RetryPendingSync. It returns an
// error when some backend could not be handed over (the store failed, the
// call was rejected): the Waker then keeps those intents due and tries
// again after RetryDelay instead of treating them as handled (see the
// AlarmRule notes in alarm.go).
type FireFunc func(ctx context.Context, due []string) error

// DefaultRetryDelay is how long a Waker waits before trying again after
// List or the FireFunc failed. It stops a broken store from turning the
// alarm into a busy loop, and is short next to the default backoff (1 s).
const DefaultRetryDelay = time.Second

// Waker is a production host's single alarm: one clock timer, always set to
// the time AlarmRule.Next computes from the store, firing FireFunc with
// the due backends and re-arming after each firing.
//
// Contract: call Rearm after every write to the store that the Waker did
// not cause itself (a command scheduling an intent can make the earliest
// time earlier) and once at host start. Rearm is cheap to over-call.
// Writes made by RetryPendingSync inside FireFunc need no Rearm: the Waker
// re-arms when FireFunc returns.
type Waker struct {
	clk    clock.Clock
	lister Lister
	fire   FireFunc
	// RetryDelay overrides DefaultRetryDelay; set it before the first Rearm.
	RetryDelay time.Duration
	// Locker, when set before the first Rearm, serialises arming in place
	// of the Waker's own mutex. The Waker holds it across a store listing
	// (Lister.List), so that a re-arm never sets the alarm from a listing
	// older than one an earlier re-arm already used. A simulator that runs
	// the Waker's callers as cooperative actors and switches between them
	// at every store call supplies a lock that parks the waiting actor
	// instead of blocking its thread. nil: a sync.Mutex.
	Locker sync.Locker
	// handledTime plants the handled-time rule (scheduler/planttest):
	// test machinery, never set in production.
	handledTime bool
	// noSettle plants a Waker that settles nothing (planttest.NoSettle).
	noSettle bool
	// staleRearm plants a Waker that re-arms after a firing from the
	// listing it took right after the hand-over (planttest.StaleRearm).
	staleRearm bool

	// ctx is cancelled by Stop so an in-flight FireFunc or List can end.
	ctx    context.Context
	cancel context.CancelFunc
	// inflight counts running alarm callbacks; Stop waits for them.
	inflight sync.WaitGroup

	mu   sync.Mutex // serialises arming: list, compute, set timer (unless Locker)
	rule AlarmRule  // rule.Settled is renewed after each successful firing
	// retryAt, if set, is the earliest time the next firing may happen
	// after a failed one.
	retryAt time.Time
	timer   *clock.Timer // nil when unarmed or when a due alarm runs directly
	at      time.Time    // what the alarm is set to, when armed
	armed   bool
	// firing is true while an alarm callback runs FireFunc. Rearm then
	// only records nothing: the callback re-arms from the store when
	// FireFunc returns, and arming now would start a second, overlapping
	// firing for intents the first one is still handling.
	firing  bool
	gen     uint64 // bumps on every (re)arm; stale callbacks exit
	stopped bool
}

// NewWaker returns a stopped-until-armed Waker; call Rearm to set the
// alarm. maxAttempts must be the workspace's retry.maxAttempts.
func NewWaker(clk clock.Clock, lister Lister, maxAttempts int, fire FireFunc) *Waker {
	ctx, cancel := context.WithCancel(context.Background())
	return &Waker{clk: clk, lister: lister, fire: fire, RetryDelay: DefaultRetryDelay,
		ctx: ctx, cancel: cancel, rule: AlarmRule{MaxAttempts: maxAttempts}}
}

// ErrWakerStopped is returned by Rearm after Stop.
var ErrWakerStopped = errors.New("scheduler: waker stopped")

// Rearm reads the store and sets the alarm to the rule's next time,
// cancelling it when no intent needs it. An alarm already due fires at
// once (on its own goroutine).
func (w *Waker) Rearm(ctx context.Context) error {
	w.lock()
	defer w.unlock()
	return w.rearmLocked(ctx)
}

// Next reports the time the alarm is set to; ok is false when unset.
func (w *Waker) Next() (at time.Time, ok bool) {
	w.lock()
	defer w.unlock()
	return w.at, w.armed
}

// Stop cancels the alarm and waits for a running FireFunc to return (its
// context is cancelled). Do not call Stop from inside FireFunc.
func (w *Waker) Stop() {
	w.lock()
	w.stopped = true
	w.gen++
	w.armed = false
	w.stopTimerLocked()
	w.unlock()
	w.cancel()
	w.inflight.Wait()
}

// stopTimerLocked cancels the pending timer. A timer stopped before it
// fired will never run its callback, so its inflight count is released
// here; one that already fired releases it in alarm.
func (w *Waker) stopTimerLocked() {
	if w.timer != nil {
		if w.timer.Stop() {
			w.inflight.Done()
		}
		w.timer = nil
	}
}

func (w *Waker) rearmLocked(ctx context.Context) error {
	if w.stopped {
		return ErrWakerStopped
	}
	if w.firing {
		return nil
	}
	intents, err := w.lister.List(ctx)
	if err != nil {
		// Keep whatever alarm is set: stale is better than none.
		return fmt.Errorf("scheduler: waker: list: %w", err)
	}
	at, ok := w.rule.Next(intents)
	if ok && at.Before(w.retryAt) {
		at = w.retryAt
	}
	w.setLocked(at, ok)
	return nil
}

// setLocked replaces the timer. A due alarm goes through the clock too
// (AfterFunc with d <= 0), never a goroutine of the Waker's own: on the
// real clock it fires at once, and a simulated clock runs the callback
// where it schedules its timers (syncsim runs it as an actor). NB:
// clock.Mock fires a due AfterFunc only when it is next moved.
func (w *Waker) setLocked(at time.Time, ok bool) {
	w.gen++
	w.stopTimerLocked()
	w.at, w.armed = at, ok
	if !ok {
		return
	}
	gen := w.gen
	w.inflight.Add(1)
	w.timer = w.clk.AfterFunc(max(at.Sub(w.clk.Now()), 0), func() { w.alarm(gen) })
}

// alarm is one firing. It computes the due set, calls FireFunc without
// holding the lock (FireFunc writes the store and its host may call
// Rearm), then settles what the library left unchanged or schedules a
// retry, and re-arms.
func (w *Waker) alarm(gen uint64) {
	defer w.inflight.Done()
	w.lock()
	if w.stopped || gen != w.gen {
		w.unlock()
		return // superseded by a later Rearm, which armed its own timer
	}
	w.timer, w.armed, w.firing = nil, false, true
	rule := w.rule
	w.unlock()

	now := w.clk.Now()
	intents, err := w.lister.List(w.ctx)
	var due []string
	var handed []Intent
	if err == nil {
		due = rule.Due(intents, now)
		for _, in := range intents {
			if _, ok := slices.BinarySearch(due, in.Backend); ok {
				handed = append(handed, in)
			}
		}
		if len(due) > 0 {
			err = w.fire(w.ctx, due)
		}
	}
	var after []Intent
	listedAfter := err == nil && len(handed) > 0
	if listedAfter {
		after, err = w.lister.List(w.ctx)
	}

	w.lock()
	defer w.unlock()
	w.firing = false
	if err == nil {
		// What the library left exactly as it was handed over (exhausted
		// intents) must not re-arm the alarm (alarm.go).
		if len(handed) > 0 {
			if w.handledTime {
				handed = dueBy(after, now)
			}
			if w.noSettle {
				handed = nil
			}
			w.rule = w.rule.Settle(handed, after)
		}
		w.retryAt = time.Time{}
	} else {
		w.retryAt = now.Add(w.RetryDelay)
	}
	if w.staleRearm && listedAfter && err == nil {
		// Planted: a request that stored an intent after that listing
		// re-armed while this firing was in flight, which did nothing
		// (the firing flag); arming from the old listing strands it.
		at, ok := w.rule.Next(after)
		w.setLocked(at, ok)
		return
	}
	if err := w.rearmLocked(w.ctx); err != nil && !w.stopped {
		// The store cannot be listed: try again later rather than never.
		w.setLocked(now.Add(w.RetryDelay), true)
	}
}

// init hands scheduler/planttest its way to plant wrong alarm rules
// (alarm.go's NB), without an exported field or function here.
func init() {
	plant.HandledTime = func(waker any) { plantedWaker(waker).plant(func(w *Waker) { w.handledTime = true }) }
	plant.NoSettle = func(waker any) { plantedWaker(waker).plant(func(w *Waker) { w.noSettle = true }) }
	plant.StaleRearm = func(waker any) { plantedWaker(waker).plant(func(w *Waker) { w.staleRearm = true }) }
}

// plantedWaker is the *Waker scheduler/planttest hands in.
func plantedWaker(waker any) *Waker {
	w, ok := waker.(*Waker)
	if !ok {
		panic("scheduler: scheduler/planttest wants a *scheduler.Waker")
	}
	return w
}

// lock and unlock take and release the lock that serialises arming:
// Locker when set, else the Waker's own mutex.
func (w *Waker) lock() {
	if w.Locker != nil {
		w.Locker.Lock()
		return
	}
	w.mu.Lock()
}

func (w *Waker) unlock() {
	if w.Locker != nil {
		w.Locker.Unlock()
		return
	}
	w.mu.Unlock()
}

// plant sets a planted rule under the Waker's lock.
func (w *Waker) plant(set func(*Waker)) {
	w.lock()
	defer w.unlock()
	set(w)
}

// dueBy returns the intents due at or before t (the planted handled-time
// rule).
func dueBy(intents []Intent, t time.Time) []Intent {
	var out []Intent
	for _, in := range intents {
		if !in.NotBefore.After(t) {
			out = append(out, in)
		}
	}
	return out
}
