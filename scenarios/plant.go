package scenarios

import (
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
)

// plantedIntent is the intent a plant op writes: the container's current
// runtime id (or sim.StaleRuntime, or none: op.Fence), the op's target counted from fetch
// when the op's target is ahead (else from the baseline), due now.
func plantedIntent(backend string, c *faults.Container, fetch scheduler.Cursor, op Op, now time.Time) scheduler.Intent {
	if !op.TargetAhead {
		fetch = scheduler.Baseline
	}
	return sim.HostIntentAfter(backend, c, fetch, op.Attempt, op.Fence, op.Target, now)
}
