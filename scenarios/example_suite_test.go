package scenarios_test

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/syncsim/syncsim/scenarios"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
)

// mapStore is a user's own intent store: here a map behind a mutex. To be
// usable by the simulated host it also lists its intents (for the alarm).
type mapStore struct {
	mu sync.Mutex
	m  map[string]scheduler.Intent
}

func (s *mapStore) Get(_ context.Context, b string) (scheduler.Intent, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, ok := s.m[b]
	return in.Clone(), ok, nil
}

func (s *mapStore) Schedule(_ context.Context, in scheduler.Intent) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[in.Backend] = in.Clone()
	return nil
}

func (s *mapStore) Clear(_ context.Context, b string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, b)
	return nil
}

func (s *mapStore) List(context.Context) ([]scheduler.Intent, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]scheduler.Intent, 0, len(s.m))
	for _, in := range s.m {
		out = append(out, in.Clone())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Backend < out[j].Backend })
	return out, nil
}

// Plug your own store into whole-system simulations. NewStore runs once per
// scenario; the factory it returns runs at every simulated host start:
// returning the same map keeps intents across restarts, as durable storage
// must; returning a fresh one is caught.
func ExampleSweep() {
	rep, err := scenarios.Sweep(scenarios.SuiteOptions{
		Seeds:     50,
		FirstSeed: 1,
		NewStore: func() sim.SchedulerFactory {
			durable := &mapStore{m: map[string]scheduler.Intent{}} // one per scenario
			return func(string) (scheduler.Scheduler, error) { return durable, nil }
		},
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("durable: every seed passed: %v\n", rep.Passed == rep.Seeds)

	rep, _ = scenarios.Sweep(scenarios.SuiteOptions{
		Seeds:     50,
		FirstSeed: 1,
		NewStore: func() sim.SchedulerFactory {
			return func(string) (scheduler.Scheduler, error) {
				return &mapStore{m: map[string]scheduler.Intent{}}, nil // forgets at restart
			}
		},
	})
	fmt.Printf("forgetful: first failure breaks %s\n", rep.Failures[0].Violation.Property)
	// Output:
	// durable: every seed passed: true
	// forgetful: first failure breaks intent-table
}
