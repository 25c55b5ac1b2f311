package sim_test

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/sim/event"
	"github.com/syncsim/syncsim/sim/oracle"
	"github.com/syncsim/syncsim/workspace"
)

// A run's trace as events: here, every intent-store call a deferred exec
// made, read from Trace.Events rather than from the text.
func ExampleTrace_Events() {
	h, err := sim.NewHost(sim.Config{Seed: 1, Backends: 1, Profile: faults.Off(), Judge: oracle.All()})
	if err != nil {
		panic(err)
	}
	defer h.Close()
	h.SpawnExec(0, workspace.SyncDefer, 1)
	if v := h.Step(); v != nil {
		panic(v)
	}
	for _, e := range h.Trace().Events() {
		if e.Kind == event.KindStore {
			fmt.Println(e.Actor, e.Value("op"), e.Value("backend"))
		}
	}
	// Output:
	// #1.exec.b0 store-get b0
	// #1.exec.b0 store-schedule b0
}
