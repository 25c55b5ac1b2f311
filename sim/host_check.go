package sim

import (
	"fmt"
	"strings"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/sim/oracle"
)

// Violation is a broken property: which one, and what was seen.
type Violation struct {
	Property string
	Detail   string
	// At is the virtual time since the run's start.
	At time.Duration
	// Stacks holds the goroutine stacks of a hang or a deadlock, for a
	// human: never part of the trace (addresses differ between runs).
	Stacks string
}

// Error renders the violation on one line: the property, the virtual
// time, the detail.
func (v *Violation) Error() string {
	return fmt.Sprintf("property %s violated at +%s: %s", v.Property, v.At, v.Detail)
}

// Properties lists every property a run judges, by name, in the
// registry's order (oracle.Registry holds what each checks and where).
var Properties = oracle.Names()

// fail breaks property with detail: the run's first violation is kept and
// traced. A registered property the run does not judge (Config.Properties)
// is not reported: fail returns nil and the run goes on. A user's
// checker's property is always reported.
func (h *Host) fail(property, detail string) *Violation {
	if h.violated != nil {
		return h.violated
	}
	if h.judged != nil && !h.judged(property) && oracle.Lookup(property) != nil {
		return nil
	}
	// A detail may quote an error the injector planted a credential in.
	detail = faults.ScrubSecrets(detail)
	h.violated = &Violation{Property: property, Detail: detail, At: h.clock.Now().Sub(h.t0)}
	h.event("-", "violation", "property="+property, "detail="+oneWord(firstLine(detail)))
	return h.violated
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// checkState compares the durable intent table with the model and checks
// the invariants that hold between steps.
func (h *Host) checkState() *Violation {
	h.listed.reset()
	intents, err := h.storedIntents()
	if err != nil {
		return h.failStore("durability", err)
	}
	if v := h.storedSecrecy(intents); v != nil {
		return v
	}
	if v := h.checkAckedWrites(); v != nil {
		return v
	}
	if v := h.checkLocalViews(); v != nil {
		return v
	}
	if v := h.stepEnd(intents); v != nil {
		return v
	}
	if v := h.traceSecrecy(); v != nil {
		return v
	}
	if h.checkRearmed("at the check, before the host re-armed", intents); h.violated != nil {
		return h.violated
	}
	if err := h.rearm(); err != nil {
		return h.failStore("durability", err)
	}
	// The alarm must never be later than the earliest live intent that was
	// not handed over and left unchanged. The bound is re-derived here from
	// the stored table, which property intent-table has just held to the
	// model's, and from the hand-overs the host made (never from the host's
	// own settled set: a host rule that settles an intent it did not hand
	// over, as the planted time-based one does, is caught at the step that
	// strands the intent rather than at the end of the run).
	if d := h.alarmMismatch(intents, h.alarm, h.alarmSet); d != "" {
		return h.fail("alarm", d)
	}
	return nil
}

// alarmMismatch holds an alarm (at, set) to the one-alarm rule over
// bound, the intents it must serve: never later than the earliest live
// intent the judge has not settled (after a rejected firing, not before
// the retry delay ends), and never earlier — an alarm set with nothing
// pending, or before the earliest pending intent is due, fires for
// nothing; the Waker's settle and retry delay exist so that an exhausted
// intent or a failing store does not turn the alarm into a loop. A store
// that owns its alarm (AlarmOwner) sets it by its own rule, so only
// lateness is held against it. It returns "" when the alarm is right.
func (h *Host) alarmMismatch(bound []scheduler.Intent, at time.Time, set bool) string {
	if d := h.alarmLate(bound, at, set); d != "" {
		return d
	}
	earliest, pending := h.alarmBound(bound)
	if h.owner == nil && set && (!pending || at.Before(earliest)) {
		want := "unset (nothing pending)"
		if pending {
			want = h.at(earliest)
		}
		return fmt.Sprintf("expected the alarm at %s, got %s: earlier than anything pending", want, h.at(at))
	}
	return ""
}

// alarmLate is alarmMismatch's first half: the alarm (at, set) is never
// later than an intent of bound that is live and not settled by the judge
// (after a rejected firing, not before the retry delay ends). "" when it
// is not late.
func (h *Host) alarmLate(bound []scheduler.Intent, at time.Time, set bool) string {
	for _, in := range bound {
		due, ok := h.alarmDue(in)
		if ok && (!set || at.After(due)) {
			alarm := "unset"
			if set {
				alarm = h.at(at)
			}
			return fmt.Sprintf("expected the alarm at or before %s (intent %s's notBefore), got %s", h.at(in.NotBefore), in.Backend, alarm)
		}
	}
	return ""
}

// alarmBound is the earliest time an intent of bound needs the alarm, and
// whether any does (alarmDue).
func (h *Host) alarmBound(bound []scheduler.Intent) (earliest time.Time, pending bool) {
	for _, in := range bound {
		if due, ok := h.alarmDue(in); ok && (!pending || due.Before(earliest)) {
			earliest, pending = due, true
		}
	}
	return earliest, pending
}

// alarmDue is when intent in needs the alarm by the judge: its NotBefore,
// not before the retry delay after a rejected firing ends; ok is false for
// an exhausted intent or one the judge settled.
func (h *Host) alarmDue(in scheduler.Intent) (due time.Time, ok bool) {
	if in.Attempt > h.opts.MaxAttempts || h.oracleSettled.Has(in) {
		return time.Time{}, false
	}
	due = in.NotBefore
	if due.Before(h.oracleRetryAt) {
		due = h.oracleRetryAt
	}
	return due, true
}

// maxTailRounds bounds the liveness tail's alarm firings.
const maxTailRounds = 256

// Liveness runs the fault-free tail: faults off, time advanced through
// every alarm until none is set, then a push and a pull of every backend.
// Afterwards every intent left must be visibly exhausted, and every backend
// whose runtime kept its log must hold the same files locally and remotely.
func (h *Host) Liveness() *Violation {
	if h.violated != nil {
		return h.violated
	}
	h.event("-", "liveness", "faults=off")
	h.oracle.Acked.Force() // every acknowledged write is checked before the tail
	if v := h.checkAckedWrites(); v != nil {
		return v
	}
	for _, c := range h.containers {
		c.SetFaults(false)
	}
	h.sched.SetFaults(false)
	h.local.SetFaults(false)
	if h.latency != nil {
		h.latency.on = false
	}
	for round := 0; h.alarmSet; round++ {
		if round == maxTailRounds {
			h.appendEvent(history.Event{Kind: history.TailBegan, Tail: &history.Tail{AlarmStuck: true, Rounds: maxTailRounds}})
			return h.violated
		}
		if v := h.Advance(max(h.alarm.Sub(h.clock.Now()), 0)); v != nil {
			return v
		}
	}
	if v := h.Advance(h.opts.MaxDelay); v != nil {
		return v
	}
	left, err := h.storedIntents()
	if err != nil {
		return h.failStore("durability", err)
	}
	h.appendEvent(history.Event{Kind: history.TailBegan, Intents: left, Tail: &history.Tail{}})
	if h.violated != nil {
		return h.violated
	}
	h.drainRecords()
	tailFrom := append([]int(nil), h.marks...)
	tailPushed := make([]int, len(h.containers))
	tailNames := make([]string, len(h.containers))
	firstPulls := make([]tailPull, len(h.containers))
	pushErrs, pullErrs := make([]error, len(h.containers)), make([]error, len(h.containers))
	for i := range h.containers {
		name := h.actorName("tail", i)
		tailNames[i] = name
		b := h.names[i]
		ws := h.ws
		h.rt.Go(name, func() {
			presizeStack()
			// The first pull reconnects (and reconciles) a backend whose
			// connection died with its container; a crashed container may
			// refuse it, so only the push and pull after it must succeed:
			// the push re-baselines host writes, the pull brings the rest.
			_, err := ws.Pull(h.ctx, b)
			firstPulls[i] = tailPull{err: err, upTo: h.containers[i].Mark()}
			n, err := ws.Push(h.ctx, b)
			if pushErrs[i] = err; err != nil {
				return
			}
			tailPushed[i] = n
			_, pullErrs[i] = ws.Pull(h.ctx, b)
		})
	}
	if parked, err := h.rt.Run(); err != nil || len(parked) > 0 {
		return h.failDeadlock(fmt.Sprintf("tail: %v parked %v", err, parked))
	}
	h.drainRecords()
	if h.violated != nil {
		return h.violated
	}
	// The push and the second pull of every backend must succeed, faults
	// off (liveness-files).
	for i := range h.containers {
		for _, op := range []struct {
			kind string
			err  error
		}{{"tail-push", pushErrs[i]}, {"tail-sync", pullErrs[i]}} {
			h.appendEvent(history.Event{Kind: history.OpReturned, Actor: tailNames[i], Backend: i,
				Op: &history.Op{Kind: op.kind, Err: op.err, StepMarks: tailFrom, StoreMark: h.sched.Mark()}})
		}
	}
	if h.violated != nil {
		return h.violated
	}
	if v := h.judgeTailPulls(tailNames, tailFrom, firstPulls); v != nil {
		return v
	}
	for i, c := range h.containers {
		// push-count: Workspace.Push returns the changes the runtime
		// acknowledged to it (SPEC 5.1), read from the runtime's record.
		if want := expectedPushCount(c.RecordView(tailFrom[i]), tailNames[i]); tailPushed[i] != want {
			return h.fail("push-count", fmt.Sprintf("tail push %s: expected %d (the changes the runtime acknowledged), got %d", h.names[i], want, tailPushed[i]))
		}
	}
	h.listed.reset() // the tail moved the stores on since the last check
	tail := &history.Tail{Backends: make([]history.TailBackend, len(h.containers))}
	for i, c := range h.containers {
		local, err := h.localFiles(i)
		if err != nil {
			return h.failStore("liveness-files", hostStoreError("local store", "files", h.names[i], err))
		}
		tail.Backends[i] = history.TailBackend{Local: local, Remote: c.Files(),
			LogLost: h.wiped[i], Reconnected: h.reconnected[i], Blind: h.oracle.Truncs.IsBlind(i)}
	}
	h.appendEvent(history.Event{Kind: history.TailEnded, Tail: tail})
	if h.violated != nil {
		return h.violated
	}
	h.event("-", "liveness", "ok")
	return h.traceSecrecy()
}

// syncNone reports whether backend b's handles do not sync (Config.SyncNone).
func (h *Host) syncNone(b int) bool { return h.cfg.SyncNone != "" && BackendLabel(b) == h.cfg.SyncNone }
