package schedulertest_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/scheduler/schedulertest"
)

// mapScheduler is a user's own tiny Scheduler: a locked map that clones on
// the way in and out, and lists its intents sorted by backend (a host sets
// its alarm from List).
type mapScheduler struct {
	mu sync.Mutex
	m  map[string]scheduler.Intent
}

func (s *mapScheduler) Get(_ context.Context, b string) (scheduler.Intent, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, ok := s.m[b]
	return in.Clone(), ok, nil
}

func (s *mapScheduler) Schedule(_ context.Context, in scheduler.Intent) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[in.Backend] = in.Clone()
	return nil
}

func (s *mapScheduler) Clear(_ context.Context, b string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, b)
	return nil
}

func (s *mapScheduler) List(context.Context) ([]scheduler.Intent, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]scheduler.Intent, 0, len(s.m))
	for _, b := range slices.Sorted(maps.Keys(s.m)) {
		out = append(out, s.m[b].Clone())
	}
	return out, nil
}

// forgetfulScheduler is the same map with a classic bug: it drops the
// runtime id when it is empty, as if "" meant absent.
type forgetfulScheduler struct{ mapScheduler }

func (s *forgetfulScheduler) Schedule(ctx context.Context, in scheduler.Intent) error {
	if in.RuntimeID != nil && *in.RuntimeID == "" {
		in.RuntimeID = nil
	}
	return s.mapScheduler.Schedule(ctx, in)
}

func Example() {
	correct := func() (schedulertest.Instance, error) {
		return schedulertest.Instance{Scheduler: &mapScheduler{m: map[string]scheduler.Intent{}}}, nil
	}
	if err := schedulertest.Check(correct, schedulertest.Options{}); err != nil {
		fmt.Println(err)
	} else {
		fmt.Println("mapScheduler: ok")
	}

	broken := func() (schedulertest.Instance, error) {
		return schedulertest.Instance{Scheduler: &forgetfulScheduler{mapScheduler{m: map[string]scheduler.Intent{}}}}, nil
	}
	err := schedulertest.Check(broken, schedulertest.Options{})
	fmt.Println("forgetfulScheduler:")
	for _, line := range strings.Split(fmt.Sprint(err), "\n") {
		fmt.Println(" ", line)
	}
	// Output:
	// mapScheduler: ok
	// forgetfulScheduler:
	//   RoundTrip: round trip: Get("empty-runtime") = {backend "empty-runtime" runtime absent target absent attempt 1 notBefore 2025-03-01T12:00:00.123456789Z}, want {backend "empty-runtime" runtime "" target absent attempt 1 notBefore 2025-03-01T12:00:00.123456789Z}
}
