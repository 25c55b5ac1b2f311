package oracle

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// What a complete sync result may claim beyond the model's status: no
// skipped path (skipped), a fetch cursor at the target (complete-at-target),
// and, for a retry, fetches bounded by the intent's target (fetch-through).
// Each reads the model's intent as it stood before the operation.

// judgeExecComplete: Skipped and the target of a wait exec's complete
// post-command pull.
func (c *ModelChecker) judgeExecComplete(e *history.Event) bool {
	op := e.Op
	after := lastExecCall(op.Calls) + 1
	if after == 0 || op.Mode == workspace.SyncDefer || c.syncNone(e.Backend) {
		return false
	}
	if op.Err != nil || op.Exec.Sync.Status != workspace.SyncComplete {
		return false
	}
	return c.judgeSkipped(e, op.Exec.Sync.Skipped, false) || c.judgeCompleteAtTarget(e, op.Calls[after:])
}

// judgeRetryComplete: Skipped and the target of a retry's complete result.
func (c *ModelChecker) judgeRetryComplete(e *history.Event) bool {
	op := e.Op
	if op.Err != nil || op.Retry.Status != workspace.RetryComplete {
		return false
	}
	return c.judgeSkipped(e, op.Retry.Skipped, true) || c.judgeCompleteAtTarget(e, op.Calls)
}

// judgeSkipped: Skipped of a complete result lists the read-only-mount
// skips of the call (SPEC 1.4, 3.1), and nothing the harness builds is
// such a mount, so it is always empty; where the Go API documents "nil
// when none" (PullResult, RetryResult) it is nil, which a host that
// marshals results or tests for none relies on.
func (c *ModelChecker) judgeSkipped(e *history.Event, skipped []string, nilWhenNone bool) bool {
	switch {
	case len(skipped) > 0:
		return c.fail("skipped", fmt.Sprintf("%s: expected no skipped paths (no backend has a read-only mount), got %q", e.Actor, skipped))
	case nilWhenNone && skipped != nil:
		return c.fail("skipped", fmt.Sprintf("%s: expected Skipped nil when none (the result's documented form), got an empty non-nil slice", e.Actor))
	}
	return false
}

// judgeCompleteAtTarget is SPEC 11.8: a pull reports complete only when
// the local fetch cursor reached its target — the snapshot of the pull's
// last fetch (already min-ed with the intent's target, which the fetch
// carried as `through`), or, for a retry that never fetched, the intent's
// target (SPEC 6.4 step 1). The driver reads the fetch cursor
// (Op.FetchCursor) only on a backend whose log held through the step,
// where the cursor cannot have moved back since, and that syncs.
func (c *ModelChecker) judgeCompleteAtTarget(e *history.Event, calls []faults.Call) bool {
	cur := e.Op.FetchCursor
	if cur == nil {
		return false
	}
	var target *scheduler.Cursor
	for _, call := range calls {
		if call.Op == faults.OpFetch && call.Err == "" {
			cc := call.CurrentCursor
			target = &cc
		}
	}
	if target == nil && e.Op.Kind == "retry" {
		if in, ok := c.state.Intent(c.setup.Backends[e.Backend]); ok {
			target = in.TargetCursor
		}
	}
	if target == nil {
		return c.fail("complete-at-target", fmt.Sprintf("%s: complete without a fetch and without a target to have reached", e.Actor))
	}
	if cur.Compare(*target) < 0 {
		return c.fail("complete-at-target", fmt.Sprintf("%s: expected complete with the fetch cursor at its target %s, got %s", e.Actor, *target, *cur))
	}
	return false
}

// judgeFetchThrough is SPEC 6.4 step 2: every fetch a retry makes is bounded
// by the intent's target (`through`), and unbounded when the intent has
// none. The intent is the model's, as it stood when the retry read it.
func (c *ModelChecker) judgeFetchThrough(e *history.Event) bool {
	in, had := c.state.Intent(c.setup.Backends[e.Backend])
	if !had {
		return false // idle, or rejected before the pull: no fetch to judge
	}
	for _, call := range e.Op.Calls {
		if call.Op != faults.OpFetch || eqPtr(call.Through, in.TargetCursor) {
			continue
		}
		want, got := "none", "none"
		if in.TargetCursor != nil {
			want = faults.CursorText(*in.TargetCursor)
		}
		if call.Through != nil {
			got = faults.CursorText(*call.Through)
		}
		return c.fail("fetch-through", fmt.Sprintf("%s: fetch #%d: expected it bounded by the intent's target %s, got %s", e.Actor, call.Seq, want, got))
	}
	return false
}
