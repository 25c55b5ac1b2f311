package sim

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/scheduler/planttest"
	"github.com/syncsim/syncsim/sim/history"
)

// The host's alarm is the production scheduler.Waker, unchanged: it arms
// one timer of the virtual clock (a native timer, clock_native.go), and
// when that fires the Waker runs as an actor under the baton — it lists
// the store, hands the due backends to the host's FireFunc, lists again,
// settles what the library left unchanged and re-arms. The host keeps the
// Waker's contract (Rearm after every write it did not cause, at every
// check) and nothing else: no rule of its own. It records what the alarm
// did (the Waker's listings in its timer callbacks, its firings, the Rearm
// calls that returned, the alarm when a callback returns and at every
// check); the oracle's AlarmChecker re-derives from those what the alarm
// must be, never from the Waker's own state.
//
// A host restart (crash or clean) drops the Waker without Stop, after the
// runtime's Kill and Clock.DropTimers: a crashed process stops nothing, and
// Stop would wait for a FireFunc whose actor Kill unwound or never started.
//
// A store that owns the alarm (AlarmOwner, the seed articles' design) is
// not the production host: for it the host follows the store's alarm with
// a native timer of its own (ownerAlarm), as the articles' host would.

// maxAlarmRounds bounds how often timers may fire at one instant: a host
// that re-arms at the instant it just handled is livelocked in virtual
// time, so the advance stops there and records it (a DriverFailed that
// property alarm-progress's checker reports).
const maxAlarmRounds = 64

// startAlarm builds this incarnation's alarm: a host start forgets what the
// last one settled (the judge does too, at the HostStart event).
func (h *Host) startAlarm() error {
	h.alarm.err = nil
	h.alarm.waker, h.alarm.ownerTimer = nil, nil
	if h.stores.owner != nil {
		h.syncOwnerAlarm()
		return nil
	}
	w := scheduler.NewWaker(h.clock, wakerLister{h}, h.opts.MaxAttempts, h.fireAlarm)
	w.RetryDelay = h.opts.InitialDelay
	w.Locker = h.rt.NewMutex() // held across a listing (alarm_rearm.go)
	switch h.cfg.Alarm {
	case AlarmHandledTime:
		planttest.HandledTime(w)
	case AlarmNoSettle:
		planttest.NoSettle(w)
	case AlarmStaleRearm:
		planttest.StaleRearm(w)
	}
	h.alarm.waker = w
	return h.rearm()
}

// rearm keeps the Waker's contract after writes it did not cause (a
// command's intent, a planted one, a host start) and notes the alarm for
// the trace.
func (h *Host) rearm() error {
	if h.stores.owner != nil {
		h.syncOwnerAlarm()
		return nil
	}
	if err := h.rearmWaker(); err != nil {
		return err
	}
	h.noteAlarm()
	return h.takeAlarmErr()
}

// rearmAfterRequest is what a production host does when a request's
// workspace call returns: re-arm the Waker from the request's own
// goroutine, at once, while other requests and the Waker's own timer
// callback are in flight. So a timer that fired just before it (its
// callback spawned, not yet run) meets a re-arm that superseded it, which
// the Waker's generation check exists for; re-arming only between steps
// would never show it one. A store error met listing is kept for the next
// check to report (takeAlarmErr). The seed articles' store-owned alarm is
// followed at the checks only, as their host does.
func (h *Host) rearmAfterRequest() {
	if h.alarm.waker == nil || h.stores.owner != nil {
		return
	}
	if err := h.rearmWaker(); err != nil && h.alarm.err == nil && !errors.Is(err, scheduler.ErrWakerStopped) {
		h.alarm.err = err
	}
	h.noteAlarm()
}

// rearmsAfterRequest draws whether the request actor name re-arms the
// Waker when its workspace call returns (one request in two), on a stream
// of its own keyed by its Run and local name, so it moves no other draw;
// call it after the actor is registered. Both hosts are real: one re-arms
// in the request, one later (at the step's check here); only the first
// supersedes timers that already fired, and only the second leaves a timer
// armed for an intent a request already cleared, which fires with nothing
// due.
func (h *Host) rearmsAfterRequest(name string) bool {
	return h.actorDraw("rearm", name).IntN(2) == 0
}

// noteAlarm traces the Waker's alarm when it moved.
func (h *Host) noteAlarm() {
	if h.alarm.waker == nil {
		return
	}
	if at, ok := h.alarm.waker.Next(); ok != h.alarm.set || !at.Equal(h.alarm.at) {
		h.setAlarm(at, ok)
	}
}

// takeAlarmErr returns (and forgets) a store error the alarm met listing
// the store: the host's own read, so never an injected fault.
func (h *Host) takeAlarmErr() error {
	err := h.alarm.err
	h.alarm.err = nil
	return err
}

// timerReturned records, for the judge, a timer callback whose Waker
// listed the store returning: the alarm as the Waker then has it and a
// fresh listing of the store, taken past the fault wrapper before anything
// else runs (the host re-arms at every check, which would mend an alarm
// the Waker set wrong after a firing before any check saw it).
func (h *Host) timerReturned(t *timerListing) {
	if h.alarm.waker == nil || h.stores.owner != nil || t.n == 0 || !h.hist.Reads(history.TimerReturned) {
		return
	}
	at, ok := h.alarm.waker.Next()
	a := &history.Alarm{At: at, Set: ok}
	intents, err := h.storedIntents()
	if err != nil {
		intents, a.Err = nil, err.Error()
	}
	h.appendEvent(history.Event{Kind: history.TimerReturned, Actor: h.rt.Actor(), Intents: intents, Alarm: a})
}

// fireAlarm is the host's scheduler.FireFunc, run by the Waker's timer
// actor: one alarm actor per due backend, all at once (so they race each
// other and whatever else the step runs), waited for on a gate. A retry
// that returned an error (a store call outside the pull's try failed, or
// its caller cancelled it) was rejected: the firing fails and the Waker
// hands everything over again after its RetryDelay. The history records
// the firing's begin and how it ended, for the judge.
func (h *Host) fireAlarm(ctx context.Context, due []string) error {
	actor := h.rt.Actor()
	before := h.violated
	h.appendEvent(history.Event{Kind: history.FiringBegan, Actor: actor, Alarm: &history.Alarm{Due: slices.Clone(due)}})
	if h.violated != before {
		// The judge found it overlapping a firing in flight (the Waker
		// hands over one at a time): it would hand the same backends over
		// twice, so the host refuses it.
		return errors.New("sim: overlapping firing")
	}
	// The Waker computed due from a listing of its own in this callback.
	if t := h.alarm.timerListings[h.rt.current]; t == nil || t.n == 0 || t.err != nil {
		h.firingEnded(actor, history.FiringAborted)
		return errors.New("sim: the Waker fired without a listing of its own in this timer callback")
	}
	h.event(actor, "alarm", "due="+strings.Join(due, ","))
	gate, pending := h.rt.NewGate(), len(due)
	var rejected []string
	for _, b := range due {
		i := h.index(b)
		h.spawnRetry(h.actorName("alarm", i), i, func(err error) {
			if err != nil {
				rejected = append(rejected, b)
			}
			if pending--; pending == 0 {
				gate.Open()
			}
		})
	}
	if err := gate.Wait(ctx); err != nil {
		h.firingEnded(actor, history.FiringAborted)
		return err
	}
	if len(rejected) > 0 {
		h.firingEnded(actor, history.FiringRejected)
		return fmt.Errorf("sim: alarm retries rejected: %s", strings.Join(rejected, ","))
	}
	h.firingEnded(actor, history.FiringAccepted)
	return nil
}

// firingEnded records how actor's firing ended.
func (h *Host) firingEnded(actor string, how history.FiringOutcome) {
	h.appendEvent(history.Event{Kind: history.FiringEnded, Actor: actor, Alarm: &history.Alarm{Outcome: how}})
}

// SpawnTick starts an actor that moves virtual time forward by d while
// other operations are in flight: when it runs (at a point the strategy
// picks; under PCT, wherever its priority or a change point puts it), time
// jumps, and every timer due in the jump fires as a new actor of this same
// step — the Waker's alarm among them, so an alarm-driven retry races
// whatever else this step runs (a command's post-pull, another retry).
func (h *Host) SpawnTick(d time.Duration) {
	name := "#" + itoa(h.ops.seq+1) + ".tick"
	h.ops.seq++
	h.event(name, "start", "op=tick", "d="+d.String())
	h.rt.Go(name, func() { h.clock.AdvanceTo(h.clock.Now().Add(d)) })
}

// spawnTimer is the clock's spawn function: a native timer's callback
// becomes an actor named after its label.
func (h *Host) spawnTimer(label string, fn func()) {
	h.ops.seq++
	h.alarm.spawned++
	h.rt.Go("#"+itoa(h.ops.seq)+"."+label, func() {
		t := &timerListing{}
		if h.alarm.timerListings == nil {
			h.alarm.timerListings = map[*actor]*timerListing{}
		}
		a := h.rt.current
		h.alarm.timerListings[a] = t
		defer delete(h.alarm.timerListings, a)
		fn()
		h.timerReturned(t)
	})
}

func (h *Host) setAlarm(at time.Time, ok bool) {
	h.alarm.at, h.alarm.set = at, ok
	if ok {
		h.event("-", "alarm-set", "at="+h.at(at))
	} else {
		h.event("-", "alarm-cancel")
	}
}

// syncOwnerAlarm follows the alarm of a store that owns it with a native
// timer of the host's.
func (h *Host) syncOwnerAlarm() {
	at, ok := h.stores.owner.Alarm()
	changed := ok != h.alarm.set || !at.Equal(h.alarm.at)
	if changed {
		h.setAlarm(at, ok)
	}
	if !changed && (!ok || h.alarm.ownerTimer != nil) {
		return
	}
	if h.alarm.ownerTimer != nil {
		h.alarm.ownerTimer.Stop()
		h.alarm.ownerTimer = nil
	}
	if ok {
		h.alarm.ownerTimer = h.clock.AfterFunc(max(at.Sub(h.clock.Now()), 0), h.ownerAlarm)
	}
}

// ownerAlarm is the seed articles' host when its one alarm goes off: it
// retries whatever is due, without waiting and without settling anything.
func (h *Host) ownerAlarm() {
	h.alarm.ownerTimer = nil
	intents, err := wakerLister{h}.List(h.ctx) // a timer callback's listing: blocking points
	if err != nil {
		return
	}
	due := scheduler.Due(intents, h.opts.MaxAttempts, h.clock.Now())
	h.stores.owner.AlarmFired()
	h.syncOwnerAlarm()
	h.event(h.rt.Actor(), "alarm", "due="+strings.Join(due, ","))
	for _, b := range due {
		i := h.index(b)
		h.spawnRetry(h.actorName("alarm", i), i, nil)
	}
}

// storedIntents reads the intent table straight from the store, past the
// fault wrapper: the host's own bookkeeping is not a fault target.
func (h *Host) storedIntents() ([]scheduler.Intent, error) {
	if h.cfg.NoScheduler {
		return nil, nil
	}
	l, ok := h.stores.inner.(scheduler.Lister)
	if !ok {
		return nil, errNoLister
	}
	intents, err := l.List(context.Background())
	return intents, hostStoreError("intent store", "list", "", err)
}

func (h *Host) index(backend string) int {
	for i, n := range h.backends.names {
		if n == backend {
			return i
		}
	}
	panic("sim: unknown backend " + backend)
}

// AlarmOwner is implemented by intent stores that set the host's alarm
// themselves, as the seed articles' DurableObjectRetryScheduler does (each
// Schedule sets the alarm to its own NotBefore, each Clear cancels it).
// When the store a SchedulerFactory opens implements it, the simulated host
// follows the store's alarm instead of the scheduler package's rule, so the
// whole design is under test.
type AlarmOwner interface {
	// Alarm returns the time the alarm is set to; ok is false when unset.
	Alarm() (at time.Time, ok bool)
	// AlarmFired tells the store its alarm went off (and is now unset,
	// until a Schedule sets it again).
	AlarmFired()
}

// singleAlarm is the seed articles' scheduler: a store whose every Schedule
// overwrites the host's one alarm with its own NotBefore and whose every
// Clear cancels it, whatever other backends still wait. It is kept here as
// the planted "single-alarm" design; use newSingleAlarm over any store.
type singleAlarm struct {
	scheduler.Scheduler
	at  time.Time
	set bool
}

// newSingleAlarm wraps inner (which must also be a scheduler.Lister).
func newSingleAlarm(inner scheduler.Scheduler) *singleAlarm { return &singleAlarm{Scheduler: inner} }

// Schedule stores the intent and sets the alarm to its NotBefore.
func (s *singleAlarm) Schedule(ctx context.Context, in scheduler.Intent) error {
	if err := s.Scheduler.Schedule(ctx, in); err != nil {
		return err
	}
	s.at, s.set = in.NotBefore, true
	return nil
}

// Clear deletes the intent and cancels the alarm.
func (s *singleAlarm) Clear(ctx context.Context, b string) error {
	if err := s.Scheduler.Clear(ctx, b); err != nil {
		return err
	}
	s.set = false
	return nil
}

// List passes through to the wrapped store.
func (s *singleAlarm) List(ctx context.Context) ([]scheduler.Intent, error) {
	l, ok := s.Scheduler.(scheduler.Lister)
	if !ok {
		return nil, errNoLister
	}
	return l.List(ctx)
}

// Close closes the wrapped store when it has a Close (a file-backed one).
func (s *singleAlarm) Close() error {
	if c, ok := s.Scheduler.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}

// Alarm implements AlarmOwner.
func (s *singleAlarm) Alarm() (time.Time, bool) { return s.at, s.set }

// AlarmFired implements AlarmOwner.
func (s *singleAlarm) AlarmFired() { s.set = false }
