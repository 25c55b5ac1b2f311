package sim

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
)

// The replay rule of SPEC 5.2 (property replay), read from the runtime's
// record and the class of each failure the harness made (Call.Transport,
// Call.PreDispatch), never from what the workspace decided:
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

// cleanup reports whether op only tears down after a failure.
func cleanup(op faults.Op) bool {
	return op == faults.OpStreamClose || op == faults.OpEventClose || op == faults.OpClose
}

// firstFailure is the index in calls of the first failed call that is not a
// teardown, or -1.
func firstFailure(calls []faults.Call, upTo int) int {
	for i := range calls[:upTo] {
		if calls[i].Err != "" && !cleanup(calls[i].Op) {
			return i
		}
	}
	return -1
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

// judgeReplay checks that a replay the SPEC requires happened.
func (h *Host) judgeReplay(f finished, calls []faults.Call) *Violation {
	if h.hit[f.actor] {
		return nil // a cancelled operation stops where its context says
	}
	var i int
	var why string
	switch f.kind {
	case "retry", "pull":
		i = firstFailure(calls, len(calls))
		if i < 0 || !calls[i].Transport {
			return nil
		}
		why = "a retry's pull replays a transport failure once (SPEC 5.2, policy always)"
	case "exec":
		dispatched := len(calls)
		for j, c := range calls {
			if c.Op == faults.OpExec && c.Err == "" {
				dispatched = j
				break
			}
		}
		i = firstFailure(calls, dispatched)
		if i < 0 {
			return nil
		}
		c := calls[i]
		switch {
		case c.Op == faults.OpExec && c.PreDispatch:
			why = "a spawn that provably failed before dispatch is replayed (SPEC 5.2, policy pre-dispatch)"
		case c.Op == faults.OpPush && c.Transport:
			why = "a transport failure of the pre-exec push is re-wrapped as pre-dispatch and replayed with the spawn (SPEC 5.2)"
		case (c.Op == faults.OpConnect || c.Op == faults.OpWatermarks) && c.Transport:
			why = "a failed connect or reconcile leaves no handle, which is always retried (SPEC 5.2, 5.4)"
		default:
			return nil
		}
	default:
		return nil
	}
	if wentOn(calls, i) || h.otherConnect(f) {
		return nil
	}
	return h.fail("replay", fmt.Sprintf("%s: expected a second pass after #%d %s failed (%s), got none", f.actor, calls[i].Seq, calls[i].Op, why))
}

// judgeNoReplay is the other side of the rule: a failure the harness made
// that is not a transport failure by SPEC 5.2's classifiers ends a
// reconnecting operation where it happened (5.2 step 1: "a non-transport
// error is returned as it is"): a retry's or an explicit pull's first
// failure, or one of an exec's before its command was dispatched, is
// followed by no call of the actor's own but teardown. The failures judged
// are the planted ones whose class the harness records as none
// (plantedNonTransport): RPC errors, settle failures, local-store faults,
// and transport failures shaped so that their class sits past the
// classifiers' 8 levels (faults' "too-deep" shape), which a classifier
// looking one level too far would replay.
func (h *Host) judgeNoReplay(f finished, calls []faults.Call) *Violation {
	if h.hit[f.actor] || h.otherConnect(f) {
		return nil
	}
	upTo := len(calls)
	switch f.kind {
	case "retry", "pull":
	case "exec":
		for j, c := range calls {
			if c.Op == faults.OpExec && c.Err == "" {
				upTo = j
				break
			}
		}
	default:
		return nil
	}
	i := firstFailure(calls, upTo)
	if i < 0 {
		return nil
	}
	c := calls[i]
	if !plantedNonTransport(c) {
		return nil
	}
	h.stats.Faults["no-replay-judged"]++
	for _, next := range calls[i+1:] {
		if !cleanup(next.Op) {
			return h.fail("replay", fmt.Sprintf("%s: expected no call after #%d %s failed with a failure that is not a transport one (its class sits past SPEC 5.2's 8 levels), got #%d %s: a non-transport failure is returned as it is, never replayed",
				f.actor, c.Seq, c.Op, next.Seq, next.Op))
		}
	}
	return nil
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

// otherConnect reports whether an actor other than f's connected to f's
// backend while f's operation ran.
func (h *Host) otherConnect(f finished) bool {
	for _, c := range h.recordSince(f.backend, f.marks[f.backend]) {
		if c.Op == faults.OpConnect && c.Actor != f.actor {
			return true
		}
	}
	return false
}

// judgeInvalidate is SPEC 5.2 step 2 with 5.3 (property invalidate): a
// transport failure inside a reconnecting operation (a fetch or its
// stream, a push, a reconcile, the spawn) or of a command's event stream
// invalidates the handle, and invalidating the cached handle closes it.
// The target capture of a deferred or failed sync (watermarks with settle)
// runs outside any of them, so its failure closes nothing. So a connection one of the
// operation's calls failed on by transport is closed by the time the step
// ends, by this actor or by another that got there first (5.3: only the
// holder of the cached handle closes it, so which actor closes it is not
// checked). A handle that stays cached after its transport died would
// fail every later call on it.
func (h *Host) judgeInvalidate(f finished, calls []faults.Call) *Violation {
	if h.hit[f.actor] {
		return nil // the operation saw its context's error, not the transport's
	}
	if h.stepCut {
		// Only the holder of the cached handle closes it (SPEC 5.3): when
		// two operations fail on one connection, the one that closes it
		// may be the one a host restart cut before its close
		// (falsealarm-invalidate-close-cut-by-restart.txt).
		return nil
	}
	for _, c := range calls {
		if c.Err == "" || !c.Transport || c.Conn == 0 || !invalidates(c) {
			continue
		}
		if !h.closedSince(f, c.Conn) {
			return h.fail("invalidate", fmt.Sprintf("%s: expected connection %d closed after #%d %s failed on it by transport (SPEC 5.2, 5.3), got it left open", f.actor, c.Conn, c.Seq, c.Op))
		}
	}
	return nil
}

// closedSince reports whether connection conn of f's backend was closed
// since f's operation began.
func (h *Host) closedSince(f finished, conn int) bool {
	for _, c := range h.recordSince(f.backend, f.marks[f.backend]) {
		if c.Op == faults.OpClose && c.Conn == conn {
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
