package sim

import (
	"github.com/syncsim/syncsim/faults"
)

// judgeInvariants checks what the driver still judges of a finished
// operation's sync result beyond the checkers: a retry's batch budget.
// (Applied is oracle.AppliedChecker's.)
func (h *Host) judgeInvariants(f finished, calls []faults.Call) *Violation {
	if f.kind == "retry" {
		return h.judgeBatches(f, calls)
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
