package oracle

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/event"
	"github.com/syncsim/syncsim/sim/history"
)

// AlarmChecker judges the host's one alarm (SPEC 1.3, 11's one-alarm
// rule as scheduler.Waker documents it) from what the driver recorded of
// it: the Waker's listings in its timer callbacks, its firings, the Rearm
// calls that returned, the alarm as the Waker had it when a callback
// returned and at every check.
//
//   - alarm: the alarm is never later than the earliest live intent the
//     judge has not settled (after a rejected firing, not before the retry
//     delay ends), never earlier than anything pending (unless the store
//     owns its alarm), and the Waker's firings never overlap;
//   - alarm-progress: virtual time moves on (the driver records when
//     timers fired too often at one instant, a DriverFailed).
//
// A DriverFailed naming either property (the alarm failing to arm as the
// host starts, timers stuck at one instant) is reported here.
//
// What was settled is the judge's own (model.Settled): the intents a
// firing handed over and had accepted, found unchanged by the callback's
// next listing — never the Waker's own set, so a Waker that settles what
// it did not hand over is caught at the step that strands the intent.
type AlarmChecker struct {
	want    func(string) bool
	setup   history.Setup
	records history.Records
	rep     history.Reporter
	// owns: this incarnation's store sets the alarm itself (AlarmOwner);
	// only lateness is held against it, and no Waker runs.
	owns bool
	// settled is the judge's settled set, retryAt the delay after a
	// rejected firing until the next good one.
	settled model.Settled
	retryAt time.Time
	// firing is the actor of the firing in flight ("" when none).
	firing string
	// callbacks holds, per timer callback in flight, what its Waker listed.
	callbacks map[string]*timerCallback
	// rearmedMark is the store record's mark at the call of the latest
	// Rearm that returned; lastSchedule, per backend, the seq of its
	// latest successful Schedule, read up to seen (checkRearmed).
	rearmedMark  int
	lastSchedule map[string]int
	seen         int
	// checked is the listing of the step's check (StepEnd).
	checked []scheduler.Intent
}

// timerCallback is what one timer callback's Waker listed and handed over.
type timerCallback struct {
	n       int                // listings so far in this callback
	intents []scheduler.Intent // the last one
	err     string
	began   time.Time // the clock as the last one began
	// pending: what the firing in flight hands over, and its now;
	// handed: what a firing of this callback had accepted, settled by
	// the next listing when settling.
	pending  []scheduler.Intent
	now      time.Time
	handed   []scheduler.Intent
	settling bool
}

// NewAlarmChecker returns the alarm family's checker, reporting the
// properties want selects (nil: every one).
func NewAlarmChecker(want func(string) bool) *AlarmChecker {
	return &AlarmChecker{want: want}
}

// Reads: the alarm's events, host starts, the host's own intent writes
// and the listing at each check.
func (c *AlarmChecker) Reads() history.Kinds {
	return history.Of(history.HostStart, history.StepEnd, history.IntentPlanted,
		history.WakerListed, history.FiringBegan, history.FiringEnded, history.Rearmed,
		history.TimerReturned, history.AlarmChecked, history.DriverFailed)
}

// Begin starts a run.
func (c *AlarmChecker) Begin(s history.Setup, r history.Records) {
	c.setup, c.records = s, r
	c.start(false)
}

// start forgets what the last host incarnation's alarm did: a host start
// builds a new one, whose store record starts empty.
func (c *AlarmChecker) start(owns bool) {
	c.owns = owns
	c.settled, c.retryAt, c.firing = model.Settled{}, time.Time{}, ""
	clear(c.callbacks)
	c.rearmedMark, c.seen = 0, 0
	clear(c.lastSchedule)
	c.checked = nil
}

// Observe judges one event.
func (c *AlarmChecker) Observe(e *history.Event, rep history.Reporter) {
	c.rep = rep
	defer func() { c.rep = nil }()
	switch e.Kind {
	case history.HostStart:
		c.start(e.OwnsAlarm)
	case history.StepEnd:
		c.checked = e.Intents
	case history.IntentPlanted:
		// Written after every Rearm called so far: the host's re-arm at
		// the check after it is the first that must serve it.
		c.readSchedules()
		c.noteSchedule(e.Intent.Backend, c.seen+1)
	case history.WakerListed:
		c.listed(e)
	case history.FiringBegan:
		c.firingBegan(e)
	case history.FiringEnded:
		c.firingEnded(e)
	case history.Rearmed:
		c.rearmedMark = max(c.rearmedMark, e.Alarm.Mark)
	case history.TimerReturned:
		c.timerReturned(e)
	case history.AlarmChecked:
		c.alarmChecked(e)
	case history.DriverFailed:
		if p := e.Driver.Property; p == "alarm" || p == "alarm-progress" {
			c.fail(p, e.Driver.Detail)
		}
	}
}

// fail reports property with detail when it is selected.
func (c *AlarmChecker) fail(property, detail string) {
	if c.want == nil || c.want(property) {
		c.rep.Violate(property, detail)
	}
}

// listed notes a timer callback's listing: the one its Waker fires from,
// and the one that settles what the callback's last firing had accepted.
func (c *AlarmChecker) listed(e *history.Event) {
	if c.owns {
		return // the owning store's host lists; no Waker to hold to its rule
	}
	if c.callbacks == nil {
		c.callbacks = map[string]*timerCallback{}
	}
	cb := c.callbacks[e.Actor]
	if cb == nil {
		cb = &timerCallback{}
		c.callbacks[e.Actor] = cb
	}
	cb.n++
	cb.intents, cb.err, cb.began = e.Intents, e.Alarm.Err, e.Alarm.Began
	if cb.settling && cb.err == "" {
		c.settled = c.settled.Settle(cb.handed, cb.intents)
	}
	cb.settling = false
}

// firingBegan holds the Waker to one firing at a time (its firing flag
// and generation check): a second while one is in flight would hand the
// same backends over twice. The hand-over is the due backends' intents of
// the listing the Waker computed due from, its callback's last.
func (c *AlarmChecker) firingBegan(e *history.Event) {
	if c.firing != "" {
		c.fail("alarm", fmt.Sprintf("%s: the Waker began a firing (due %s) while %s's was still in flight: firings must not overlap", e.Actor, strings.Join(e.Alarm.Due, ","), c.firing))
		return
	}
	c.firing = e.Actor
	cb := c.callbacks[e.Actor]
	if cb == nil || cb.n == 0 || cb.err != "" {
		return // the driver refuses it: nothing is handed over
	}
	cb.pending, cb.now = nil, cb.began
	for _, in := range cb.intents {
		if _, ok := slices.BinarySearch(e.Alarm.Due, in.Backend); ok {
			cb.pending = append(cb.pending, in)
		}
	}
}

// firingEnded notes how the firing in flight ended: rejected, the Waker
// hands everything over again after its retry delay; accepted, the
// callback's next listing settles what it handed over.
func (c *AlarmChecker) firingEnded(e *history.Event) {
	if e.Actor != c.firing {
		return
	}
	c.firing = ""
	cb := c.callbacks[e.Actor]
	if cb == nil {
		return
	}
	switch e.Alarm.Outcome {
	case history.FiringRejected:
		c.retryAt = cb.now.Add(c.setup.Retry.InitialDelay)
	case history.FiringAccepted:
		cb.handed, cb.settling = cb.pending, true
		c.retryAt = time.Time{}
	}
}

// timerReturned holds the Waker to its own contract right after one of
// its timer callbacks returned: after a firing, the alarm is re-armed
// from a fresh listing. The host re-arms the Waker at every check, which
// would mend an alarm the Waker set wrong before any check saw it; so
// here the alarm must already be what the rule gives over the callback's
// last listing (the one the Waker armed from; the store may have changed
// since, and that is checkRearmed's business), with the judge's settled
// set and retry delay. A callback whose listing failed is not judged (the
// check reports that as store-error). Then every Rearm that returned
// during the firing must be served.
func (c *AlarmChecker) timerReturned(e *history.Event) {
	cb := c.callbacks[e.Actor]
	delete(c.callbacks, e.Actor)
	if c.owns || cb == nil || cb.n == 0 || cb.err != "" {
		return
	}
	if d := c.mismatch(cb.intents, e.Alarm.At, e.Alarm.Set); d != "" {
		c.fail("alarm", "right after a firing, before the host re-armed it: "+d)
		return
	}
	if e.Alarm.Err == "" {
		c.checkRearmed("right after a firing", e.Intents, e.Alarm.At, e.Alarm.Set)
	}
}

// alarmChecked judges the alarm at the step's check, against the stored
// table (which intent-table has just held to the model's). Before the
// host re-arms, the Waker's must serve what every returned Rearm must;
// after, it must be exactly what the rule gives, re-derived from the
// table and the hand-overs the host made (never from the Waker's own
// settled set: a Waker rule that settles an intent it did not hand over,
// as the planted time-based one does, is caught at the step that strands
// the intent rather than at the end of the run).
func (c *AlarmChecker) alarmChecked(e *history.Event) {
	if !e.Alarm.Rearmed {
		if !c.owns {
			c.checkRearmed("at the check, before the host re-armed", c.checked, e.Alarm.At, e.Alarm.Set)
		}
		return
	}
	if d := c.mismatch(c.checked, e.Alarm.At, e.Alarm.Set); d != "" {
		c.fail("alarm", d)
	}
}

// checkRearmed holds the Waker to the contract of Rearm: once a Rearm has
// returned, the alarm serves every intent that was stored before the call
// and is still stored unchanged — whether that Rearm listed the store
// itself or was absorbed by a firing in flight (the firing re-arms from
// the store when it ends). So right after a firing ends and at every check
// before the host re-arms, the alarm (at, set) must be no later than any
// such intent of intents that is live and that the judge has not settled.
// A Waker that re-arms from a listing older than such an intent leaves it
// stranded until something else re-arms; with no host re-arm at the check
// in production, for good.
//
// Which intents: those whose latest successful Schedule in this host
// incarnation's record came before the store record's mark at the call of
// a Rearm that has returned, and those with no Schedule in the record
// (stored before the host started). An intent the host planted counts as
// written after every Rearm called before it. An intent stored after
// every returned Rearm began is nobody's yet: its writer may not have
// re-armed.
func (c *AlarmChecker) checkRearmed(where string, intents []scheduler.Intent, at time.Time, set bool) {
	c.readSchedules()
	var bound []scheduler.Intent
	for _, in := range intents {
		if c.lastSchedule[in.Backend] <= c.rearmedMark {
			bound = append(bound, in)
		}
	}
	if d := c.late(bound, at, set); d != "" {
		c.fail("alarm", fmt.Sprintf("%s, after every Rearm since the intent was stored had returned: %s", where, d))
	}
}

// readSchedules brings lastSchedule up to the end of the store record.
func (c *AlarmChecker) readSchedules() {
	calls := c.records.StoreSince(c.seen)
	for _, call := range calls {
		if call.Op == faults.StoreOpSchedule && call.Err == "" {
			c.noteSchedule(call.Backend, call.Seq)
		}
	}
	c.seen += len(calls)
}

func (c *AlarmChecker) noteSchedule(backend string, seq int) {
	if c.lastSchedule == nil {
		c.lastSchedule = map[string]int{}
	}
	c.lastSchedule[backend] = seq
}

// mismatch holds an alarm (at, set) to the one-alarm rule over bound,
// the intents it must serve: never later than the earliest live intent
// the judge has not settled (after a rejected firing, not before the
// retry delay ends), and never earlier — an alarm set with nothing
// pending, or before the earliest pending intent is due, fires for
// nothing; the Waker's settle and retry delay exist so that an exhausted
// intent or a failing store does not turn the alarm into a loop. A store
// that owns its alarm sets it by its own rule, so only lateness is held
// against it. It returns "" when the alarm is right.
func (c *AlarmChecker) mismatch(bound []scheduler.Intent, at time.Time, set bool) string {
	if d := c.late(bound, at, set); d != "" {
		return d
	}
	earliest, pending := c.earliest(bound)
	if !c.owns && set && (!pending || at.Before(earliest)) {
		want := "unset (nothing pending)"
		if pending {
			want = c.at(earliest)
		}
		return fmt.Sprintf("expected the alarm at %s, got %s: earlier than anything pending", want, c.at(at))
	}
	return ""
}

// late is mismatch's first half: the alarm (at, set) is never later than
// an intent of bound that is live and not settled by the judge. "" when
// it is not late.
func (c *AlarmChecker) late(bound []scheduler.Intent, at time.Time, set bool) string {
	for _, in := range bound {
		due, ok := c.due(in)
		if ok && (!set || at.After(due)) {
			alarm := "unset"
			if set {
				alarm = c.at(at)
			}
			return fmt.Sprintf("expected the alarm at or before %s (intent %s's notBefore), got %s", c.at(in.NotBefore), in.Backend, alarm)
		}
	}
	return ""
}

// earliest is the earliest time an intent of bound needs the alarm, and
// whether any does (due).
func (c *AlarmChecker) earliest(bound []scheduler.Intent) (earliest time.Time, pending bool) {
	for _, in := range bound {
		if due, ok := c.due(in); ok && (!pending || due.Before(earliest)) {
			earliest, pending = due, true
		}
	}
	return earliest, pending
}

// due is when intent in needs the alarm by the judge: its NotBefore, not
// before the retry delay after a rejected firing ends; ok is false for an
// exhausted intent or one the judge settled.
func (c *AlarmChecker) due(in scheduler.Intent) (due time.Time, ok bool) {
	if in.Attempt > c.setup.Retry.MaxAttempts || c.settled.Has(in) {
		return time.Time{}, false
	}
	due = in.NotBefore
	if due.Before(c.retryAt) {
		due = c.retryAt
	}
	return due, true
}

// at prints t as a time since the run's start, as the trace does.
func (c *AlarmChecker) at(t time.Time) string { return event.Offset(t.Sub(c.setup.T0)) }
