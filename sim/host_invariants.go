package sim

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// The SPEC section 11 invariants that the runtime's own record settles
// without asking the SUT what it decided: how many commands ran for an
// exec, which exit code the command ended with, how many connections an
// operation opened, whether a pull happened at all and how far each stream
// was read. Each is a property of its own.
//
// NB: "after the command" is after the actor's last exec call: a spawn
// replayed after a pre-dispatch failure (SPEC 5.3) is still the command.

// maxConnectsPerSync is SPEC 11.10: one logical sync operation makes at
// most two connection attempts (the call and one reconnect retry).
const maxConnectsPerSync = 2

// maxConnectsPerExec bounds an exec's three sync operations (pre-exec push,
// spawn, post-command pull or settle), each with its own reconnect retry.
const maxConnectsPerExec = 3 * maxConnectsPerSync

// judgeInvariants checks one finished exec or retry against the record.
func (h *Host) judgeInvariants(f finished, calls []faults.Call) *Violation {
	switch f.kind {
	case "exec":
		if v := h.judgeDispatch(f); v != nil {
			return v
		}
		return h.judgeExecSync(f, calls)
	case "retry":
		return h.judgeRetrySync(f, calls)
	}
	return nil
}

// judgeDispatch: SPEC 11.6 and 5.3 — an exec runs its command at most once,
// exactly once when it returns, and reports the exit code the command ended
// with.
func (h *Host) judgeDispatch(f finished) *Violation {
	ran := h.containers[f.backend].ExecsOf(f.actor)
	if len(ran) > 1 {
		return h.fail("dispatch-once", fmt.Sprintf("%s: the command ran %d times (%q on %s, then on %s): a dispatched command must never be replayed",
			f.actor, len(ran), ran[0].Command, ran[0].Process, ran[len(ran)-1].Process))
	}
	if f.err != nil {
		return nil
	}
	if len(ran) == 0 {
		return h.fail("dispatch-once", fmt.Sprintf("%s: the exec returned a result but its command never ran", f.actor))
	}
	if f.exec.ExitCode != ran[0].ExitCode {
		return h.fail("exit-code", fmt.Sprintf("%s: expected exit code %d (the command %q exited so), got %d",
			f.actor, ran[0].ExitCode, ran[0].Command, f.exec.ExitCode))
	}
	return nil
}

// judgeExecSync: connections (11.10), the deferred exec never pulls (11.11),
// a wait exec that reports complete pulled, and pullOnce reads every
// stream it opens to its end (SPEC 6.3 step 7) unless the stream fails.
func (h *Host) judgeExecSync(f finished, calls []faults.Call) *Violation {
	after := lastExecCall(calls) + 1
	if after == 0 {
		return nil // the command never started: nothing after it to judge
	}
	if n := countOp(calls, faults.OpConnect); n > maxConnectsPerExec {
		return h.fail("connect-bound", fmt.Sprintf("%s: expected at most %d connection attempts in one exec, got %d", f.actor, maxConnectsPerExec, n))
	}
	if n := countOp(calls[after:], faults.OpConnect); n > maxConnectsPerSync {
		return h.fail("connect-bound", fmt.Sprintf("%s: expected at most %d connection attempts after the command, got %d", f.actor, maxConnectsPerSync, n))
	}
	pulls := faults.SummarisePulls(calls[after:], f.actor)
	if f.mode == workspace.SyncDefer {
		if len(pulls) > 0 {
			return h.fail("defer-never-pulls", fmt.Sprintf("%s: a deferred exec fetched after its command (SPEC 11.11)", f.actor))
		}
		return nil
	}
	if h.syncNone(f.backend) {
		// SPEC 4.1 step 2: a sync-less handle's pull is an empty complete
		// batch, with no remote sync call at all.
		h.stats.Faults["sync-none-exec"]++
		if len(pulls) > 0 {
			return h.fail("wait-pulls", fmt.Sprintf("%s: fetched through a handle that does not sync (SPEC 4, sync \"none\")", f.actor))
		}
		return nil
	}
	if f.err == nil && f.exec.Sync.Status == workspace.SyncComplete {
		if !anyFetched(pulls) {
			return h.fail("wait-pulls", fmt.Sprintf("%s: sync complete without a post-command fetch (SPEC 3.2)", f.actor))
		}
		if v := h.judgeSkipped(f, f.exec.Sync.Skipped, false); v != nil {
			return v
		}
		if v := h.judgeApplied(f, calls[after:], f.exec.Sync.Applied); v != nil {
			return v
		}
		if v := h.judgeCompleteAtTarget(f, calls[after:]); v != nil {
			return v
		}
	}
	for _, p := range pulls {
		if p.ClosedEarly && p.Entries > 0 {
			return h.fail("pull-to-end", fmt.Sprintf("%s: pullOnce closed stream of fetch #%d after %d entries, before its end (SPEC 6.3)", f.actor, p.FetchSeq, p.Entries))
		}
	}
	return nil
}

// judgeRetrySync: connections (11.10) and the batch budget (SPEC 6.4): a
// stream is read for at most maxEntries entries, and one closed before its
// end without a failure stopped at the entry budget, unless the byte or
// wall-time budget could have stopped it.
func (h *Host) judgeRetrySync(f finished, calls []faults.Call) *Violation {
	if n := countOp(calls, faults.OpConnect); n > maxConnectsPerSync {
		return h.fail("connect-bound", fmt.Sprintf("%s: expected at most %d connection attempts in one retry, got %d", f.actor, maxConnectsPerSync, n))
	}
	if v := h.judgeFetchThrough(f, calls); v != nil {
		return v
	}
	if f.err == nil && f.retry.Status == workspace.RetryComplete {
		if v := h.judgeSkipped(f, f.retry.Skipped, true); v != nil {
			return v
		}
		if v := h.judgeApplied(f, calls, f.retry.Applied); v != nil {
			return v
		}
		if v := h.judgeCompleteAtTarget(f, calls); v != nil {
			return v
		}
	}
	return h.judgeBatches(f, calls)
}

// lastExecCall is the index in calls of the actor's last exec call, or -1.
func lastExecCall(calls []faults.Call) int {
	for i := len(calls) - 1; i >= 0; i-- {
		if calls[i].Op == faults.OpExec {
			return i
		}
	}
	return -1
}

func anyFetched(pulls []faults.PullRecord) bool {
	for _, p := range pulls {
		if p.FetchErr == "" {
			return true
		}
	}
	return false
}

// judgeSkipped: Skipped of a complete result lists the read-only-mount
// skips of the call (SPEC 1.4, 3.1), and nothing the harness builds is
// such a mount, so it is always empty; where the Go API documents "nil
// when none" (PullResult, RetryResult) it is nil, which a host that
// marshals results or tests for none relies on.
func (h *Host) judgeSkipped(f finished, skipped []string, nilWhenNone bool) *Violation {
	switch {
	case len(skipped) > 0:
		return h.fail("skipped", fmt.Sprintf("%s: expected no skipped paths (no backend has a read-only mount), got %q", f.actor, skipped))
	case nilWhenNone && skipped != nil:
		return h.fail("skipped", fmt.Sprintf("%s: expected Skipped nil when none (the result's documented form), got an empty non-nil slice", f.actor))
	}
	return nil
}

// judgeApplied: Applied of a complete result is exact within what the
// record proves (SPEC 1.4: entries applied in this call).
func (h *Host) judgeApplied(f finished, calls []faults.Call, applied int) *Violation {
	lo, hi, loKnown := h.oracle.Served.AppliedBounds(f.backend, calls)
	if applied > hi {
		return h.fail("applied", fmt.Sprintf("%s: expected applied <= %d (the entries served to it), got %d", f.actor, hi, applied))
	}
	if loKnown && applied < lo {
		return h.fail("applied", fmt.Sprintf("%s: applied=%d, but its last stream served %d entries never seen before, each new content", f.actor, applied, lo))
	}
	if want := h.appliedExact(f, calls); applied != want {
		return h.fail("applied", fmt.Sprintf("%s: expected applied=%d (what its last pass's applies changed in the local store, SPEC 6.7), got %d", f.actor, want, applied))
	}
	return nil
}

// judgeCompleteAtTarget is SPEC 11.8: a pull reports complete only when
// the local fetch cursor reached its target — the snapshot of the pull's
// last fetch (already min-ed with the intent's target, which the fetch
// carried as `through`), or, for a retry that never fetched, the intent's
// target (SPEC 6.4 step 1). Checked only on a backend whose log held
// through the step, where the cursor cannot have moved back since.
func (h *Host) judgeCompleteAtTarget(f finished, calls []faults.Call) *Violation {
	if !h.containers[f.backend].Survived() || h.oracle.Served.HasMoved(f.backend) || h.syncNone(f.backend) {
		return nil // a sync-less backend's complete batch moves no cursor (SPEC 4.1 step 2)
	}
	var target *scheduler.Cursor
	for _, c := range calls {
		if c.Op == faults.OpFetch && c.Err == "" {
			cc := c.CurrentCursor
			target = &cc
		}
	}
	if target == nil && f.kind == "retry" {
		if in, ok := h.model.Intent(h.names[f.backend]); ok {
			target = in.TargetCursor
		}
	}
	if target == nil {
		return h.fail("complete-at-target", fmt.Sprintf("%s: complete without a fetch and without a target to have reached", f.actor))
	}
	cur, err := h.store.FetchCursor(h.names[f.backend])
	if err != nil {
		return h.failStore("durability", fmt.Errorf("local store FetchCursor(%s): %w", h.names[f.backend], err))
	}
	if cur.Compare(*target) < 0 {
		return h.fail("complete-at-target", fmt.Sprintf("%s: expected complete with the fetch cursor at its target %s, got %s", f.actor, *target, cur))
	}
	return nil
}

// judgeFetchThrough is SPEC 6.4 step 2: every fetch a retry makes is bounded
// by the intent's target (`through`), and unbounded when the intent has
// none. The intent is the model's, as it stood when the retry read it.
func (h *Host) judgeFetchThrough(f finished, calls []faults.Call) *Violation {
	in, had := h.model.Intent(h.names[f.backend])
	if !had {
		return nil // idle, or rejected before the pull: no fetch to judge
	}
	for _, c := range calls {
		if c.Op != faults.OpFetch || eqPtr(c.Through, in.TargetCursor) {
			continue
		}
		want, got := "none", "none"
		if in.TargetCursor != nil {
			want = faults.CursorText(*in.TargetCursor)
		}
		if c.Through != nil {
			got = faults.CursorText(*c.Through)
		}
		return h.fail("fetch-through", fmt.Sprintf("%s: fetch #%d: expected it bounded by the intent's target %s, got %s", f.actor, c.Seq, want, got))
	}
	return nil
}
