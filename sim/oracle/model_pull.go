package oracle

import (
	"fmt"

	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/sim/history"
)

// An explicit Workspace.Pull (pullOnce, SPEC 6.3) touches no intent, so the
// model's table stays as it is; what it is held to comes from the
// runtime's record: the class of the error it returns (error-class), the
// wrapper's text (error-text), and what a complete result may claim.

// judgePull judges one finished Pull.
func (c *ModelChecker) judgePull(e *history.Event) bool {
	op := e.Op
	if store := c.storeCalls(e); len(store) > 0 {
		return c.fail("model", fmt.Sprintf("%s: an explicit pull never touches the intent store (SPEC 6.3), got %d calls: %v", e.Actor, len(store), store))
	}
	want := c.pullErrClass(e)
	c.reach("exec/pull/" + want.name)
	if c.judgeErrClass(e, want) || c.judgeRetriedWrapper(e, want) {
		return true
	}
	if op.Err != nil {
		return false
	}
	return c.judgeSkipped(e, op.Pull.Skipped, true) || c.judgeCompleteAtTarget(e, op.Calls)
}

// judgeTailPull judges the liveness tail's first pull of a backend. That
// pull may fail (a crashed container may still refuse the connect), but
// not with any error: it is the first pullOnce after every fault, so a
// push the run left between two batches makes it trip the cross-side
// assertion (docs/SPEC.md 6.3 QUIRK), and that error must match
// ErrCrossSideInvariant.
func (c *ModelChecker) judgeTailPull(e *history.Event) bool {
	want := c.pullErrClass(e)
	c.reach("exec/tail-pull/" + want.name)
	return c.judgeErrClass(e, want) || c.judgeRetriedWrapper(e, want)
}

// pullErrClass predicts the error of an explicit pull from its record: none
// when its last pass completed, the cross-side assertion when the last fetch
// found the remote's applied-push cursor inside a revision
// (pullOnceTripsCrossSide), else the class of the failure that ended it.
func (c *ModelChecker) pullErrClass(e *history.Event) errWant {
	calls := e.Op.Calls
	out := pullOutcome(calls, nil, c.budget(), wallBudget{}) // pullOnce has no budget
	switch out.Kind {
	case model.PullComplete:
		if trips, text := crossSideTrip(calls, e.Op.PushRevReads); trips {
			want := wantCrossSide
			want.text = text
			return want
		}
		return wantNone
	case model.PullFailed, model.PullLost:
		return c.failureClass(e, calls)
	}
	return errWant{name: "unknown"}
}
