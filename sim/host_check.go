package sim

import (
	"fmt"
	"strings"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
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

// fail breaks property with detail: the run's first violation is kept and
// traced. A property the run does not judge (Config.Judged) is not
// reported: fail returns nil and the run goes on.
func (h *Host) fail(property, detail string) *Violation {
	if h.violated != nil {
		return h.violated
	}
	if h.cfg.Judged != nil && !h.cfg.Judged(property) {
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
	h.observed.listed.reset()
	intents, err := h.storedIntents()
	if err != nil {
		return h.failStore("durability", err)
	}
	if v := h.listAckedWrites(); v != nil {
		return v
	}
	if v := h.viewLocal(); v != nil {
		return v
	}
	if v := h.stepEnd(intents); v != nil {
		return v
	}
	// The alarm as the Waker has it before the host re-arms, and as the
	// host follows it after: the judge holds both to the listing above
	// (oracle.AlarmChecker).
	if h.alarm.waker != nil {
		at, ok := h.alarm.waker.Next()
		h.appendEvent(history.Event{Kind: history.AlarmChecked, Alarm: &history.Alarm{At: at, Set: ok}})
		if h.violated != nil {
			return h.violated
		}
	}
	if err := h.rearm(); err != nil {
		return h.failStore("durability", err)
	}
	h.appendEvent(history.Event{Kind: history.AlarmChecked, Alarm: &history.Alarm{At: h.alarm.at, Set: h.alarm.set, Rearmed: true}})
	return h.violated
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
	h.ledgers.acked.Force() // every acknowledged write is checked before the tail
	if v := h.listAckedWrites(); v != nil {
		return v
	}
	for _, c := range h.backends.containers {
		c.SetFaults(false)
	}
	h.stores.sched.SetFaults(false)
	h.stores.local.SetFaults(false)
	if h.latency != nil {
		h.latency.on = false
	}
	for round := 0; h.alarm.set; round++ {
		if round == maxTailRounds {
			h.appendEvent(history.Event{Kind: history.TailBegan, Tail: &history.Tail{AlarmStuck: true, Rounds: maxTailRounds}})
			return h.violated
		}
		if v := h.Advance(max(h.alarm.at.Sub(h.clock.Now()), 0)); v != nil {
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
	tailFrom := append([]int(nil), h.records.marks...)
	tailPushed := make([]int, len(h.backends.containers))
	tailNames := make([]string, len(h.backends.containers))
	firstPulls := make([]tailPull, len(h.backends.containers))
	pushErrs, pullErrs := make([]error, len(h.backends.containers)), make([]error, len(h.backends.containers))
	for i := range h.backends.containers {
		name := h.actorName("tail", i)
		tailNames[i] = name
		b := h.backends.names[i]
		ws := h.stores.ws
		h.rt.Go(name, func() {
			presizeStack()
			// The first pull reconnects (and reconciles) a backend whose
			// connection died with its container; a crashed container may
			// refuse it, so only the push and pull after it must succeed:
			// the push re-baselines host writes, the pull brings the rest.
			_, err := ws.Pull(h.ctx, b)
			firstPulls[i] = tailPull{err: err, upTo: h.backends.containers[i].Mark()}
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
	for i := range h.backends.containers {
		for _, op := range []struct {
			kind string
			err  error
		}{{"tail-push", pushErrs[i]}, {"tail-sync", pullErrs[i]}} {
			h.appendEvent(history.Event{Kind: history.OpReturned, Actor: tailNames[i], Backend: i,
				Op: &history.Op{Kind: op.kind, Err: op.err, StepMarks: tailFrom, StoreMark: h.stores.sched.Mark()}})
		}
	}
	if h.violated != nil {
		return h.violated
	}
	if v := h.judgeTailPulls(tailNames, tailFrom, firstPulls); v != nil {
		return v
	}
	for i := range h.backends.containers {
		// push-count and apply-batch judge the tail (oracle.PushCountChecker,
		// oracle.AppliedChecker).
		h.appendEvent(history.Event{Kind: history.TailReturned, Actor: tailNames[i], Backend: i, Op: &history.Op{Kind: "tail", Pushed: tailPushed[i], StepMarks: tailFrom}})
		if h.violated != nil {
			return h.violated
		}
	}
	h.observed.listed.reset() // the tail moved the stores on since the last check
	tail := &history.Tail{Backends: make([]history.TailBackend, len(h.backends.containers))}
	for i, c := range h.backends.containers {
		local, err := h.localFiles(i)
		if err != nil {
			return h.failStore("liveness-files", hostStoreError("local store", "files", h.backends.names[i], err))
		}
		tail.Backends[i] = history.TailBackend{Local: local, Remote: c.Files(),
			LogLost: h.backends.wiped[i], Reconnected: h.backends.reconnected[i], Blind: h.ledgers.truncs.IsBlind(i)}
	}
	h.appendEvent(history.Event{Kind: history.TailEnded, Tail: tail})
	if h.violated != nil {
		return h.violated
	}
	h.event("-", "liveness", "ok")
	return h.runEnd()
}

// syncNone reports whether backend b's handles do not sync (Config.SyncNone).
func (h *Host) syncNone(b int) bool { return h.cfg.SyncNone != "" && BackendLabel(b) == h.cfg.SyncNone }
