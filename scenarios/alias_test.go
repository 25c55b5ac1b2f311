package scenarios

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
)

// aliasingStore is an intent store that keeps the intents it is given and
// hands out what it keeps, pointers and all: the classic store written
// without copies. Every answer is right as long as no caller writes
// through a pointer, which the workspace never does; the harness's store
// wrapper does (faults/alias.go), so the aliasing shows in the table.
type aliasingStore struct {
	mu sync.Mutex
	m  map[string]scheduler.Intent
}

func (s *aliasingStore) Get(_ context.Context, backend string) (scheduler.Intent, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, ok := s.m[backend]
	return in, ok, nil
}

func (s *aliasingStore) Schedule(_ context.Context, in scheduler.Intent) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[in.Backend] = in
	return nil
}

func (s *aliasingStore) Clear(_ context.Context, backend string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, backend)
	return nil
}

func (s *aliasingStore) List(context.Context) ([]scheduler.Intent, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []scheduler.Intent
	for _, in := range s.m {
		out = append(out, in)
	}
	slices.SortFunc(out, func(a, b scheduler.Intent) int { return strings.Compare(a.Backend, b.Backend) })
	return out, nil
}

// A store that aliases its callers' intents is found, as intent-table.
func TestAliasingStoreIsCaught(t *testing.T) {
	rep := mustSweep(t, SuiteOptions{Seeds: 50, NewStore: func() sim.SchedulerFactory {
		s := &aliasingStore{m: map[string]scheduler.Intent{}}
		return func(string) (scheduler.Scheduler, error) { return s, nil }
	}})
	requireFailure(t, rep, "intent-table")
	if d := rep.Failures[0].Violation.Detail; !strings.Contains(d, "poisoned-by-harness") {
		t.Fatalf("the table difference does not show the poison:\n%s", d)
	}
}
