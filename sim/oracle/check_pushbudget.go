package oracle

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// PushBudgetChecker is the checker of property push-budget (SPEC 6.5): every
// push the runtime recorded carries at most the budget's entries, and at
// most its bytes past the first change (a single change over the byte
// budget still travels alone). Read from the runtime's record alone. It
// also counts the budget's edges the run reached: an empty acknowledged
// push, a full batch, a lone change over the byte budget.
type PushBudgetChecker struct {
	names  []string
	budget workspace.PushBudget
}

// Reads: the runtime's calls.
func (c *PushBudgetChecker) Reads() history.Kinds { return history.Of(history.RuntimeCall) }

// Begin starts a run.
func (c *PushBudgetChecker) Begin(s history.Setup, _ history.Records) {
	c.names, c.budget = s.Backends, s.PushBatch
}

// Observe reads one runtime call.
func (c *PushBudgetChecker) Observe(e *history.Event, rep history.Reporter) {
	call := e.Runtime
	if call.Op != faults.OpPush {
		return
	}
	if call.Err == "" {
		switch {
		case call.Changes == 0:
			rep.Reach("push-empty-ack")
		case call.Changes == c.budget.MaxEntries:
			rep.Reach("push-full-batch")
		case call.Changes == 1 && call.PushBytes > c.budget.MaxBytes:
			rep.Reach("push-over-budget")
		}
	}
	switch {
	case call.Changes > c.budget.MaxEntries:
		rep.Violate("push-budget", fmt.Sprintf("%s: push #%d to %s: expected at most %d changes (the budget), got %d",
			call.Actor, call.Seq, c.names[e.Backend], c.budget.MaxEntries, call.Changes))
	case call.Changes > 1 && call.PushBytes > c.budget.MaxBytes:
		rep.Violate("push-budget", fmt.Sprintf("%s: push #%d to %s: expected at most %d bytes past the first change (the budget), got %d changes of %d bytes",
			call.Actor, call.Seq, c.names[e.Backend], c.budget.MaxBytes, call.Changes, call.PushBytes))
	}
}
