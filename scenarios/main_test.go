package scenarios

import (
	"testing"

	"go.uber.org/goleak"
)

// Every simulated run ends with all its actor goroutines unwound; goleak
// proves no run leaves one behind. The exceptions are the goroutines a
// planted hang blocks for real: nothing can unwind them (see sim.Watch),
// nor the run's driver while it waits for the blocked actor's coroutine to
// yield (its stack tops with iter.Pull's next); an actor left behind for
// any other reason still shows.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreAnyFunction("github.com/syncsim/syncsim/scenarios.(*blockingScheduler).Schedule"),
		goleak.IgnoreTopFunction("iter.Pull[...].func2"))
}
