package sim

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// judgeInvariants checks what the driver still judges of a finished exec
// or retry beyond the model: Skipped, Applied and the target of a complete
// result, the fetch bound and the batch budget of a retry. The invariants
// the runtime's record settles alone are checkers of their own
// (oracle.SyncRecordChecker, oracle.DispatchChecker).
func (h *Host) judgeInvariants(f finished, calls []faults.Call) *Violation {
	switch f.kind {
	case "exec":
		return h.judgeExecSync(f, calls)
	case "retry":
		return h.judgeRetrySync(f, calls)
	}
	return nil
}

// judgeExecSync: Skipped, Applied and the target of a wait exec's complete
// post-command pull.
func (h *Host) judgeExecSync(f finished, calls []faults.Call) *Violation {
	after := lastExecCall(calls) + 1
	if after == 0 || f.mode == workspace.SyncDefer || h.syncNone(f.backend) {
		return nil
	}
	if f.err == nil && f.exec.Sync.Status == workspace.SyncComplete {
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
	return nil
}

// judgeRetrySync: connections (11.10) and the batch budget (SPEC 6.4): a
// stream is read for at most maxEntries entries, and one closed before its
// end without a failure stopped at the entry budget, unless the byte or
// wall-time budget could have stopped it.
func (h *Host) judgeRetrySync(f finished, calls []faults.Call) *Violation {
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
