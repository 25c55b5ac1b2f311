package sim

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/syncsim/syncsim/scheduler"
)

// maxAlarmRounds bounds how often the alarm may fire at one instant: a host
// that re-arms at the instant it just handled is livelocked in virtual time.
const maxAlarmRounds = 64

// fireAlarm is the host's alarm handler: retry every due backend
// concurrently, then re-arm.
func (h *Host) fireAlarm() *Violation {
	now := h.clock.Now()
	for round := 0; ; round++ {
		if round == maxAlarmRounds {
			return h.fail("alarm-progress", "alarm fired "+itoa(maxAlarmRounds)+" times at one instant")
		}
		if err := h.handOver(now, ""); err != nil {
			return h.failStore("durability", err)
		}
		if v := h.Step(); v != nil {
			return v
		}
		if !h.alarmSet || h.alarm.After(now) {
			return nil
		}
	}
}

// handOver is what the host does when its alarm goes off at now: it lists
// the store, spawns an alarm actor for every due backend (plus those whose
// earlier alarm retry was rejected, once their delay is over) and remembers
// the intents it handed over, to settle them when the step ends.
func (h *Host) handOver(now time.Time, where string) error {
	intents, err := h.storedIntents()
	if err != nil {
		return err
	}
	var due []string
	if h.owner == nil {
		due = h.alarmRule.Due(intents, now)
		if h.redoSet && !h.redoAt.After(now) {
			// Only what is still due: an intent rewritten since (its
			// NotBefore now in the future) is the rule's again. Handing it
			// over early could let the library rewrite it identically
			// (same attempt, same NotBefore), and it would look settled.
			due = mergeSorted(due, dueAmong(intents, h.redo, now))
			h.redo, h.redoSet = nil, false
		}
	} else {
		// The seed articles' host retries whatever is due when its one
		// alarm goes off.
		due = scheduler.Due(intents, h.opts.MaxAttempts, now)
		h.owner.AlarmFired()
		h.syncOwnerAlarm()
	}
	h.alarmSet = h.alarmSet && h.owner != nil && h.alarm.After(now)
	details := []string{"due=" + strings.Join(due, ",")}
	if where != "" {
		details = append(details, "in="+where)
	}
	h.event("-", "alarm", details...)
	for _, in := range intents {
		if _, ok := slices.BinarySearch(due, in.Backend); ok {
			h.handed = append(h.handed, in)
		}
	}
	h.lastFire = now
	for _, b := range due {
		i := h.index(b)
		h.spawnRetry(h.actorName("alarm", i), i)
	}
	return nil
}

// settle ends a step in which the alarm handed intents over: what the
// library left exactly as handed (exhausted, or rejected) no longer arms
// the alarm (scheduler.AlarmRule.Settle), and a rejected one is handed over
// again after the host's own delay.
func (h *Host) settle() error {
	if len(h.handed) == 0 {
		return nil
	}
	after, err := h.storedIntents()
	if err != nil {
		return err
	}
	// The oracle settles what the host really handed over, whatever rule
	// the host itself follows (the planted one below overrides it).
	h.oracleSettled = h.oracleSettled.Settle(h.handed, after)
	handed := h.handed
	if h.cfg.Alarm == AlarmHandledTime {
		// The planted time-based rule: everything stored and due by the
		// firing counts as handled, whether it was handed over or not.
		handed = dueBy(after, h.lastFire)
	}
	h.alarmRule = h.alarmRule.Settle(handed, after)
	h.handed = h.handed[:0]
	if h.owner == nil {
		h.noteRejected(h.clock.Now())
	}
	return nil
}

// noteRejected remembers the backends whose alarm-driven retry was rejected
// (a store call outside the pull's try failed): their intents are left as
// they were, so they are settled and the rule alone would strand them. The
// host hands them over again after its own short delay, as a production
// host re-arms after a store outage (scheduler.Waker.RetryDelay).
func (h *Host) noteRejected(now time.Time) {
	for _, f := range h.done {
		if f.kind == "retry" && f.err != nil && strings.Contains(f.actor, ".alarm.") {
			h.redo = mergeSorted(h.redo, []string{h.names[f.backend]})
			h.redoAt, h.redoSet = now.Add(h.opts.InitialDelay), true
		}
	}
}

func mergeSorted(a, b []string) []string {
	out := append(append([]string(nil), a...), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// syncOwnerAlarm copies the alarm of a store that owns it.
func (h *Host) syncOwnerAlarm() {
	at, ok := h.owner.Alarm()
	if ok != h.alarmSet || !at.Equal(h.alarm) {
		h.setAlarm(at, ok)
	}
}

// SpawnTick starts an actor that moves virtual time forward by d while
// other operations are in flight: when it runs (at a point the strategy
// picks; under PCT, wherever its priority or a change point puts it), time
// jumps, and if the alarm falls inside the jump the host
// hands every due backend to a new alarm actor at once, so an alarm-driven
// retry races whatever else this step runs (a command's post-pull, another
// retry). The alarm is re-armed when the step ends.
func (h *Host) SpawnTick(d time.Duration) {
	name := "#" + itoa(h.opSeq+1) + ".tick"
	h.opSeq++
	h.event(name, "start", "op=tick", "d="+d.String())
	h.rt.Go(name, func() {
		end := h.clock.Now().Add(d)
		if h.alarmSet && !h.alarm.After(end) {
			at := h.alarm
			if at.After(h.clock.Now()) {
				h.clock.AdvanceTo(at)
			}
			h.tickAlarm(at)
		}
		h.clock.AdvanceTo(end)
	})
}

// tickAlarm fires the alarm from inside a step: the due backends get alarm
// actors in this same step instead of a step of their own.
func (h *Host) tickAlarm(now time.Time) {
	if err := h.handOver(now, "step"); err != nil {
		h.failStore("durability", err)
	}
}

// rearm sets the alarm from the stored intents (the correct host).
func (h *Host) rearm() error {
	intents, err := h.storedIntents()
	if err != nil {
		return err
	}
	h.rearmFrom(intents)
	return nil
}

// rearmFrom is rearm over a table the caller has just listed.
func (h *Host) rearmFrom(intents []scheduler.Intent) {
	at, ok := h.alarmRule.Next(intents)
	if h.redoSet && (!ok || h.redoAt.Before(at)) {
		at, ok = h.redoAt, true
	}
	if ok != h.alarmSet || !at.Equal(h.alarm) {
		h.setAlarm(at, ok)
	}
}

func (h *Host) setAlarm(at time.Time, ok bool) {
	h.alarm, h.alarmSet = at, ok
	if ok {
		h.event("-", "alarm-set", "at="+h.at(at))
	} else {
		h.event("-", "alarm-cancel")
	}
}

// storedIntents reads the intent table straight from the store, past the
// fault wrapper: the host's own bookkeeping is not a fault target.
func (h *Host) storedIntents() ([]scheduler.Intent, error) {
	if h.cfg.NoScheduler {
		return nil, nil
	}
	l, ok := h.inner.(scheduler.Lister)
	if !ok {
		return nil, errNoLister
	}
	intents, err := l.List(context.Background())
	return intents, hostStoreError("intent store", "list", "", err)
}

func (h *Host) index(backend string) int {
	for i, n := range h.names {
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

// SingleAlarm is the seed articles' scheduler: a store whose every Schedule
// overwrites the host's one alarm with its own NotBefore and whose every
// Clear cancels it, whatever other backends still wait. It is kept here as
// the planted "single-alarm" design; use NewSingleAlarm over any store.
type SingleAlarm struct {
	scheduler.Scheduler
	at  time.Time
	set bool
}

// NewSingleAlarm wraps inner (which must also be a scheduler.Lister).
func NewSingleAlarm(inner scheduler.Scheduler) *SingleAlarm { return &SingleAlarm{Scheduler: inner} }

// Schedule stores the intent and sets the alarm to its NotBefore.
func (s *SingleAlarm) Schedule(ctx context.Context, in scheduler.Intent) error {
	if err := s.Scheduler.Schedule(ctx, in); err != nil {
		return err
	}
	s.at, s.set = in.NotBefore, true
	return nil
}

// Clear deletes the intent and cancels the alarm.
func (s *SingleAlarm) Clear(ctx context.Context, b string) error {
	if err := s.Scheduler.Clear(ctx, b); err != nil {
		return err
	}
	s.set = false
	return nil
}

// List passes through to the wrapped store.
func (s *SingleAlarm) List(ctx context.Context) ([]scheduler.Intent, error) {
	l, ok := s.Scheduler.(scheduler.Lister)
	if !ok {
		return nil, errNoLister
	}
	return l.List(ctx)
}

// Close closes the wrapped store when it has a Close (a file-backed one).
func (s *SingleAlarm) Close() error {
	if c, ok := s.Scheduler.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}

// Alarm implements AlarmOwner.
func (s *SingleAlarm) Alarm() (time.Time, bool) { return s.at, s.set }

// AlarmFired implements AlarmOwner.
func (s *SingleAlarm) AlarmFired() { s.set = false }

// dueBy returns the intents due at or before t.
func dueBy(intents []scheduler.Intent, t time.Time) []scheduler.Intent {
	var out []scheduler.Intent
	for _, in := range intents {
		if !in.NotBefore.After(t) {
			out = append(out, in)
		}
	}
	return out
}

// dueAmong returns the backends of names whose stored intent is due by now.
func dueAmong(intents []scheduler.Intent, names []string, now time.Time) []string {
	var out []string
	for _, in := range intents {
		if _, ok := slices.BinarySearch(names, in.Backend); ok && !in.NotBefore.After(now) {
			out = append(out, in.Backend)
		}
	}
	return out
}
