package scenarios

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
)

// twoSlotStore is an intent store with room for two intents (a fixed-size
// table, say): scheduling a third backend's intent silently evicts the one
// written longest ago. Every run with one or two backends passes with it.
type twoSlotStore struct {
	*scheduler.Memory
	mu    sync.Mutex
	order []string // backends held, least recently scheduled first
}

func (s *twoSlotStore) Schedule(ctx context.Context, in scheduler.Intent) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := slices.Index(s.order, in.Backend); i >= 0 {
		s.order = slices.Delete(s.order, i, i+1)
	} else if len(s.order) == 2 {
		if err := s.Memory.Clear(ctx, s.order[0]); err != nil {
			return err
		}
		s.order = s.order[1:]
	}
	s.order = append(s.order, in.Backend)
	return s.Memory.Schedule(ctx, in)
}

func (s *twoSlotStore) Clear(ctx context.Context, backend string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := slices.Index(s.order, backend); i >= 0 {
		s.order = slices.Delete(s.order, i, i+1)
	}
	return s.Memory.Clear(ctx, backend)
}

// TestTwoSlotStoreIsCaught: only the seeds with three backends or more can
// tell a store that holds two intents from a correct one, and Check at its
// default budget meets one and reports it. The probes are off: the
// intent-store probe (one seed in four) reports this store at its first
// probing seed, and this test is about what the drawn backend count reaches.
func TestTwoSlotStoreIsCaught(t *testing.T) {
	rec := &fatalRecorder{TB: t}
	Check(rec, SuiteOptions{noProbes: true, NewStore: func() sim.SchedulerFactory {
		s := &twoSlotStore{Memory: scheduler.NewMemory()}
		return func(string) (scheduler.Scheduler, error) { return s, nil }
	}})
	if len(rec.msgs) != 1 {
		t.Fatalf("Check reported %d times, want once: %q", len(rec.msgs), rec.msgs)
	}
	seed := reportedSeed(rec.msgs[0])
	if seed == 0 || FromSeed(seed, DefaultConfig).Config.Backends < 3 {
		t.Errorf("the first failing seed (%d) should be one with three backends or more:\n%s", seed, firstLines(rec.msgs[0], 12))
	}
	t.Logf("%s", firstLines(rec.msgs[0], 5))
}

// TestDrawnBackendCount: with Backends 0, FromSeed draws every count from
// one to maxDrawnBackends, two in most seeds; the count is printed and
// parsed back; a preset count is kept, and the profile and budgets of a
// seed do not depend on its count.
func TestDrawnBackendCount(t *testing.T) {
	const seeds = 3000
	seen := map[int]int{}
	for seed := uint64(1); seed <= seeds; seed++ {
		s := FromSeed(seed, DefaultConfig)
		n := s.Config.Backends
		if n < 1 || n > maxDrawnBackends {
			t.Fatalf("seed %d: drew %d backends, want 1..%d", seed, n, maxDrawnBackends)
		}
		seen[n]++
		back, err := Parse(Format(s))
		if err != nil || back.Config.Backends != n {
			t.Fatalf("seed %d: backends=%d does not round-trip: %v", seed, n, err)
		}
		preset := DefaultConfig
		preset.Backends = 2
		two := FromSeed(seed, preset)
		if two.Config.Backends != 2 || two.Profile != s.Profile || two.Config.MaxEntries != s.Config.MaxEntries ||
			two.Config.MaxBytes != s.Config.MaxBytes || two.Config.Retry != s.Config.Retry {
			t.Fatalf("seed %d: a preset count of 2 gave %d backends or another profile or budget", seed, two.Config.Backends)
		}
	}
	for _, n := range append([]int{1, 2}, manyBackends...) {
		if seen[n] == 0 {
			t.Errorf("no seed in %d drew %d backends (counts: %v)", seeds, n, seen)
		}
	}
	if seen[2] < seeds/2 {
		t.Errorf("%d of %d seeds drew two backends, want most", seen[2], seeds)
	}
}
