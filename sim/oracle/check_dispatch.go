package oracle

import (
	"fmt"

	"github.com/syncsim/syncsim/sim/history"
)

// DispatchChecker judges SPEC 11.6 and 5.3 from the container's own log of
// the commands it ran: an exec runs its command at most once, exactly once
// when it returns a result (dispatch-once), and reports the exit code the
// command ended with (exit-code).
type DispatchChecker struct {
	want func(string) bool
}

// Reads: finished operations.
func (c *DispatchChecker) Reads() history.Kinds { return history.Of(history.OpReturned) }

// Begin starts a run.
func (c *DispatchChecker) Begin(history.Setup, history.Records) {}

// Observe judges one finished exec; a cancelled one is property cancel's.
func (c *DispatchChecker) Observe(e *history.Event, rep history.Reporter) {
	op := e.Op
	if op.Kind != "exec" || op.Cancelled {
		return
	}
	ran := op.Commands
	property, detail := "", ""
	switch {
	case len(ran) > 1:
		property, detail = "dispatch-once", fmt.Sprintf("%s: the command ran %d times (%q on %s, then on %s): a dispatched command must never be replayed",
			e.Actor, len(ran), ran[0].Command, ran[0].Process, ran[len(ran)-1].Process)
	case op.Err != nil:
	case len(ran) == 0:
		property, detail = "dispatch-once", fmt.Sprintf("%s: the exec returned a result but its command never ran", e.Actor)
	case op.Exec.ExitCode != ran[0].ExitCode:
		property, detail = "exit-code", fmt.Sprintf("%s: expected exit code %d (the command %q exited so), got %d",
			e.Actor, ran[0].ExitCode, ran[0].Command, op.Exec.ExitCode)
	}
	if property != "" && (c.want == nil || c.want(property)) {
		rep.Violate(property, detail)
	}
}
