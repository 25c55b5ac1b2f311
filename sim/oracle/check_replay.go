package oracle

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
)

// ReplayChecker judges SPEC 5.2's reconnect rule from the runtime's record
// and the class of each failure the harness made (Call.Transport,
// Call.PreDispatch), never from what the workspace decided: properties
// replay (a failure the SPEC replays is followed by a second pass, one it
// does not is not) and invalidate (the connection a transport failure
// happened on is closed). lost-message, which needs the model's word that
// the retry is lost, is the model family's.
//
// The replay rule:
//
//   - a retry's pull runs under the "always" policy: when its first failure
//     is a transport failure, a second pass must follow;
//   - an exec's dispatch (connect, reconcile, the pre-exec push, the spawn)
//     runs under "pre-dispatch": a failed connect or reconcile, a transport
//     failure of the pre-exec push (re-wrapped as pre-dispatch) and a
//     pre-dispatch failure of the spawn are replayed; a spawn that failed
//     after it may have started is not (dispatch-once checks that side).
//
// A second pass shows as a further call of the actor's own after the
// failure: closing the broken stream or connection does not count. Its
// first step may also be to share another actor's connect (SPEC 5.4: an
// in-flight connect is shared), which leaves no call of the actor's own if
// that connect fails; and a first pass that shared a failed connect leaves
// none either, so the actor's first recorded failure may be its second
// pass's. An operation during which another actor connected to the
// backend therefore proves nothing and is skipped.
//
// An operation a cancel hit stops where its context says, and is not
// judged; one cancelled before any call is property cancel's.
type ReplayChecker struct {
	want    func(string) bool
	records history.Records
	// cut: the current step was cut short by a host restart (a StepCut
	// event since the last step's end or host start).
	cut bool
}

// Reads: finished operations, and the step cuts and ends that bound a step.
func (c *ReplayChecker) Reads() history.Kinds {
	return history.Of(history.OpReturned, history.StepCut, history.StepEnd, history.HostStart)
}

// Begin starts a run.
func (c *ReplayChecker) Begin(_ history.Setup, r history.Records) { c.records, c.cut = r, false }

// Observe judges one finished operation.
func (c *ReplayChecker) Observe(e *history.Event, rep history.Reporter) {
	switch e.Kind {
	case history.StepCut:
		c.cut = true
		return
	case history.StepEnd, history.HostStart:
		c.cut = false
		return
	}
	op := e.Op
	if op.Cancelled || op.CancelHit {
		return
	}
	report := func(property, detail string) bool {
		if c.want == nil || c.want(property) {
			rep.Violate(property, detail)
			return true
		}
		return false
	}
	step := c.records.RuntimeSince(e.Backend, op.StepMarks[e.Backend])
	if c.replay(e, step, report) || c.noReplay(e, step, rep, report) {
		return
	}
	c.invalidate(e, step, report)
}

// replay checks that a replay the SPEC requires happened.
func (c *ReplayChecker) replay(e *history.Event, step []faults.Call, report func(string, string) bool) bool {
	calls := e.Op.Calls
	var i int
	var why string
	switch e.Op.Kind {
	case "retry", "pull":
		i = firstFailure(calls, len(calls))
		if i < 0 || !calls[i].Transport {
			return false
		}
		why = "a retry's pull replays a transport failure once (SPEC 5.2, policy always)"
	case "exec":
		i = firstFailure(calls, dispatched(calls))
		if i < 0 {
			return false
		}
		call := calls[i]
		switch {
		case call.Op == faults.OpExec && call.PreDispatch:
			why = "a spawn that provably failed before dispatch is replayed (SPEC 5.2, policy pre-dispatch)"
		case call.Op == faults.OpPush && call.Transport:
			why = "a transport failure of the pre-exec push is re-wrapped as pre-dispatch and replayed with the spawn (SPEC 5.2)"
		case (call.Op == faults.OpConnect || call.Op == faults.OpWatermarks) && call.Transport:
			why = "a failed connect or reconcile leaves no handle, which is always retried (SPEC 5.2, 5.4)"
		default:
			return false
		}
	default:
		return false
	}
	if wentOn(calls, i) || connectedOther(step, e.Actor) {
		return false
	}
	return report("replay", fmt.Sprintf("%s: expected a second pass after #%d %s failed (%s), got none", e.Actor, calls[i].Seq, calls[i].Op, why))
}

// noReplay is the other side of the rule: a failure the harness made that
// is not a transport failure by SPEC 5.2's classifiers ends a reconnecting
// operation where it happened (5.2 step 1: "a non-transport error is
// returned as it is"): a retry's or an explicit pull's first failure, or
// one of an exec's before its command was dispatched, is followed by no
// call of the actor's own but teardown. The failures judged are the
// planted ones whose class the harness records as none
// (plantedNonTransport): RPC errors, settle failures, local-store faults,
// and transport failures shaped so that their class sits past the
// classifiers' 8 levels (faults' "too-deep" shape), which a classifier
// looking one level too far would replay.
func (c *ReplayChecker) noReplay(e *history.Event, step []faults.Call, rep history.Reporter, report func(string, string) bool) bool {
	calls := e.Op.Calls
	upTo := len(calls)
	switch e.Op.Kind {
	case "retry", "pull":
	case "exec":
		upTo = dispatched(calls)
	default:
		return false
	}
	if connectedOther(step, e.Actor) {
		return false
	}
	i := firstFailure(calls, upTo)
	if i < 0 || !plantedNonTransport(calls[i]) {
		return false
	}
	rep.Reach("no-replay-judged")
	failed := calls[i]
	for _, next := range calls[i+1:] {
		if !cleanup(next.Op) {
			return report("replay", fmt.Sprintf("%s: expected no call after #%d %s failed with a failure that is not a transport one (its class sits past SPEC 5.2's 8 levels), got #%d %s: a non-transport failure is returned as it is, never replayed",
				e.Actor, failed.Seq, failed.Op, next.Seq, next.Op))
		}
	}
	return false
}

// invalidate is SPEC 5.2 step 2 with 5.3: a transport failure inside a
// reconnecting operation (a fetch or its stream, a push, a reconcile, the
// spawn) or of a command's event stream invalidates the handle, and
// invalidating the cached handle closes it. The target capture of a
// deferred or failed sync (watermarks with settle) runs outside any of
// them, so its failure closes nothing. So a connection one of the
// operation's calls failed on by transport is closed by the time the step
// ends, by this actor or by another that got there first (5.3: only the
// holder of the cached handle closes it, so which actor closes it is not
// checked). A handle that stays cached after its transport died would
// fail every later call on it.
func (c *ReplayChecker) invalidate(e *history.Event, step []faults.Call, report func(string, string) bool) bool {
	if c.cut {
		// Only the holder of the cached handle closes it (SPEC 5.3): when
		// two operations fail on one connection, the one that closes it
		// may be the one a host restart cut before its close
		// (falsealarm-invalidate-close-cut-by-restart.txt).
		return false
	}
	for _, call := range e.Op.Calls {
		if call.Err == "" || !call.Transport || call.Conn == 0 || !invalidates(call) {
			continue
		}
		if !closed(step, call.Conn) {
			return report("invalidate", fmt.Sprintf("%s: expected connection %d closed after #%d %s failed on it by transport (SPEC 5.2, 5.3), got it left open", e.Actor, call.Conn, call.Seq, call.Op))
		}
	}
	return false
}

// dispatched is the index of an exec's first spawn that succeeded
// (len(calls): none): the calls before it are its dispatch's.
func dispatched(calls []faults.Call) int {
	for j, c := range calls {
		if c.Op == faults.OpExec && c.Err == "" {
			return j
		}
	}
	return len(calls)
}

// connectedOther reports whether an actor other than actor connected in
// step (a backend's record since an operation's step began).
func connectedOther(step []faults.Call, actor string) bool {
	for i := range step {
		if step[i].Op == faults.OpConnect && step[i].Actor != actor {
			return true
		}
	}
	return false
}

// wentOn reports whether the actor made a call after calls[i] other than
// teardown.
func wentOn(calls []faults.Call, i int) bool {
	for _, c := range calls[i+1:] {
		if !cleanup(c.Op) {
			return true
		}
	}
	return false
}

// plantedNonTransport reports whether c failed with a failure the harness
// made that SPEC 5.2's classifiers must not take for a transport one: an
// RPC error, a settle failure, a local-store fault, or a transport failure
// shaped past their 8 levels.
func plantedNonTransport(c faults.Call) bool {
	if c.Transport || c.Err == "" {
		return false
	}
	return c.Unclassed || c.Fault == faults.RPCError || c.Fault == faults.SettleFailure || c.Op == faults.OpLocalStore
}

// closed reports whether connection conn was closed in step.
func closed(step []faults.Call, conn int) bool {
	for i := range step {
		if step[i].Op == faults.OpClose && step[i].Conn == conn {
			return true
		}
	}
	return false
}

// invalidates reports whether a transport failure of c must invalidate the
// handle it was made on.
func invalidates(c faults.Call) bool {
	switch c.Op {
	case faults.OpFetch, faults.OpStreamNext, faults.OpPush, faults.OpExec, faults.OpEventNext:
		return true
	case faults.OpWatermarks:
		return !c.Settle
	}
	return false
}
