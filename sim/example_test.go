package sim_test

import (
	"fmt"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/sim/oracle"
	"github.com/syncsim/syncsim/workspace"
)

// Drive the simulated host by hand: a deferred command stores a fenced
// intent; advancing past its NotBefore fires the alarm, whose retry pulls
// and completes. Every step is judged against the reference model.
func ExampleHost() {
	h, err := sim.NewHost(sim.Config{Seed: 1, Backends: 1, Profile: faults.Off(), Judge: oracle.All()})
	if err != nil {
		panic(err)
	}
	defer h.Close()

	h.SpawnExec(0, workspace.SyncDefer, 2)
	if v := h.Step(); v != nil {
		panic(v)
	}
	due, ok := h.IntentDue(0)
	fmt.Println("intent due:", ok, due.Sub(sim.Epoch))

	if v := h.Advance(2 * time.Second); v != nil {
		panic(v)
	}
	_, ok = h.IntentDue(0)
	fmt.Println("intent after the alarm:", ok)
	fmt.Println("retries:", h.Stats().Retry)
	// Output:
	// intent due: true 1s
	// intent after the alarm: false
	// retries: map[complete:1]
}
