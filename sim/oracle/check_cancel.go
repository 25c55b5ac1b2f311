package oracle

import (
	"context"
	"errors"
	"fmt"

	"github.com/syncsim/syncsim/sim/history"
)

// CancelChecker judges property cancel (SPEC 5.1): an operation the
// harness cancelled while it was parked before any call of its own
// returns its context's error and makes no call at all — it abandons
// cleanly, so nothing it would have changed is half-changed. (An
// operation a cancel landed on later, mid-call, is held by the other
// properties, which excuse only what its context's error explains:
// Op.CancelHit.)
type CancelChecker struct {
	records history.Records
}

// Reads: finished operations.
func (c *CancelChecker) Reads() history.Kinds { return history.Of(history.OpReturned) }

// Begin starts a run.
func (c *CancelChecker) Begin(_ history.Setup, r history.Records) { c.records = r }

// Observe judges one finished operation that was cancelled while parked.
func (c *CancelChecker) Observe(e *history.Event, rep history.Reporter) {
	op := e.Op
	if !op.Cancelled {
		return
	}
	if !errors.Is(op.Err, context.Canceled) {
		rep.Violate("cancel", fmt.Sprintf("%s: cancelled while parked before any call, returned %v, want the context's error", e.Actor, op.Err))
		return
	}
	store := 0
	for _, s := range c.records.StoreSince(op.StoreMark) {
		if s.Actor == e.Actor {
			store++
		}
	}
	if len(op.Calls) > 0 || store > 0 {
		rep.Violate("cancel", fmt.Sprintf("%s: cancelled while parked before any call, then made %d runtime and %d intent-store calls", e.Actor, len(op.Calls), store))
	}
}
