package scenarios

import (
	"context"
	"sync"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
)

// BlockingSchedulerFactory returns a factory (one per scenario) whose
// intent store's Schedule never returns from its n-th call on, counted
// over the whole scenario: a store stuck on a lost connection or a lock.
// It is the planted bug blocking-scheduler, and what a test plugs into
// Check to see a hang reported.
func BlockingSchedulerFactory(n int) sim.SchedulerFactory {
	s := &blockingScheduler{Memory: scheduler.NewMemory(), n: n}
	return func(string) (scheduler.Scheduler, error) { return s, nil }
}

type blockingScheduler struct {
	*scheduler.Memory
	n     int
	mu    sync.Mutex
	calls int
}

func (s *blockingScheduler) Schedule(ctx context.Context, in scheduler.Intent) error {
	s.mu.Lock()
	s.calls++
	stuck := s.calls >= s.n
	s.mu.Unlock()
	if stuck {
		select {} // never returns, whatever the context says
	}
	return s.Memory.Schedule(ctx, in)
}
