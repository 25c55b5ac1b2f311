package scenarios_test

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scenarios"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/sim/oracle"
)

// readYourWrites is an invariant of your own over the history of your
// store: a Get finds an intent when the last call that changed the
// backend's intent was a Schedule that succeeded — across host restarts
// too, for a store that is durable. It reads the intent store's record
// (StoreCall events) and nothing else.
type readYourWrites struct {
	stored map[string]int // backend -> the Schedule call (Seq) that wrote it, 0 when none
}

func (c *readYourWrites) Reads() history.Kinds { return history.Of(history.StoreCall) }

func (c *readYourWrites) Begin(history.Setup, history.Records) { c.stored = map[string]int{} }

func (c *readYourWrites) Observe(e *history.Event, rep history.Reporter) {
	call := e.Store
	switch {
	case call.Op == faults.StoreOpSchedule && call.Err == "":
		c.stored[call.Backend] = call.Seq
	case call.Op == faults.StoreOpClear:
		delete(c.stored, call.Backend) // cleared, or a failed clear that may have: no expectation
	case call.Op == faults.StoreOpGet && call.Err == "" && !call.Found && c.stored[call.Backend] > 0:
		rep.Violate("read-your-writes", fmt.Sprintf("%s: get %s found nothing, though schedule #%d stored an intent and nothing cleared it",
			call.Actor, call.Backend, c.stored[call.Backend]))
	}
}

// Add a checker of your own to a whole-system sweep: NewCheckers gives
// every run fresh ones, judged on the same history as the built-in
// properties. Here only handle-leak of those is judged, so the store that
// forgets at a host restart is caught by readYourWrites alone.
func ExampleSuiteOptions_newCheckers() {
	sweep := func(newStore func() sim.SchedulerFactory) scenarios.SweepReport {
		rep, err := scenarios.Sweep(scenarios.SuiteOptions{
			Seeds: 50, FirstSeed: 1,
			NewStore:    newStore,
			Properties:  []string{"handle-leak"},
			NewCheckers: func() []oracle.Checker { return []oracle.Checker{&readYourWrites{}} },
		})
		if err != nil {
			panic(err)
		}
		return rep
	}
	rep := sweep(func() sim.SchedulerFactory {
		durable := &mapStore{m: map[string]scheduler.Intent{}} // one per scenario
		return func(string) (scheduler.Scheduler, error) { return durable, nil }
	})
	fmt.Printf("durable: %d of %d seeds passed\n", rep.Passed, rep.Seeds)
	rep = sweep(func() sim.SchedulerFactory {
		return func(string) (scheduler.Scheduler, error) {
			return &mapStore{m: map[string]scheduler.Intent{}}, nil // forgets at restart
		}
	})
	fmt.Printf("forgetful: first failure breaks %s\n", rep.Failures[0].Violation.Property)
	// Output:
	// durable: 50 of 50 seeds passed
	// forgetful: first failure breaks read-your-writes
}
