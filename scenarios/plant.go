package scenarios

import (
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
)

// plantedIntent is the intent a plant op writes: the container's current
// runtime id (or sim.StaleRuntime), the op's target, due now.
func plantedIntent(backend string, c *faults.Container, op Op, now time.Time) scheduler.Intent {
	return sim.HostIntent(backend, c, op.Attempt, op.Stale, op.Target, now)
}
