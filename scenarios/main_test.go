package scenarios

import (
	"testing"

	"go.uber.org/goleak"
)

// Every simulated run ends with all its actor goroutines unwound; goleak
// proves no run leaves one behind. The exceptions are the goroutines a
// planted hang blocks for real: nothing can unwind them (see sim.Watch).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreAnyFunction("github.com/syncsim/syncsim/scenarios.(*blockingScheduler).Schedule"))
}
