package sim

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/workspace"
)

// judgeInvariants checks what the driver still judges of a finished
// operation's sync result beyond the checkers: Applied of a complete
// result (it needs the local-store model's applies), and a retry's batch
// budget.
func (h *Host) judgeInvariants(f finished, calls []faults.Call) *Violation {
	switch f.kind {
	case "exec":
		after := lastExecCall(calls) + 1
		if after == 0 || f.mode == workspace.SyncDefer || h.syncNone(f.backend) {
			return nil
		}
		if f.err == nil && f.exec.Sync.Status == workspace.SyncComplete {
			return h.judgeApplied(f, calls[after:], f.exec.Sync.Applied)
		}
	case "retry":
		if f.err == nil && f.retry.Status == workspace.RetryComplete {
			if v := h.judgeApplied(f, calls, f.retry.Applied); v != nil {
				return v
			}
		}
		return h.judgeBatches(f, calls)
	case "pull":
		if f.err == nil && !h.cancelled[f.actor] {
			return h.judgeApplied(f, calls, f.pull.Applied)
		}
	}
	return nil
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
