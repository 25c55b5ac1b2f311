package scenarios

import (
	"context"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
)

// Intent stores wrong only where no run reaches: more rows than a run ever
// holds at once, ids that are prefixes of each other, an empty runtime id.
// Each passed 300 of 300 default seeds before the intent-store probe
// (sim/host_intentprobe.go), which now reports each at its first probing
// seed.

// evictingStore keeps at most max rows, dropping the lowest id first.
type evictingStore struct {
	*scheduler.Memory
	max int
}

func (s evictingStore) Schedule(ctx context.Context, in scheduler.Intent) error {
	if err := s.Memory.Schedule(ctx, in); err != nil {
		return err
	}
	all, err := s.Memory.List(ctx)
	for err == nil && len(all) > s.max {
		err = s.Memory.Clear(ctx, all[0].Backend)
		all = all[1:]
	}
	return err
}

// prefixClearStore clears every backend whose id starts with the one named.
type prefixClearStore struct{ *scheduler.Memory }

func (s prefixClearStore) Clear(ctx context.Context, backend string) error {
	all, err := s.Memory.List(ctx)
	for _, in := range all {
		if err == nil && strings.HasPrefix(in.Backend, backend) {
			err = s.Memory.Clear(ctx, in.Backend)
		}
	}
	return err
}

// emptyRuntimeIsNone reads an empty runtime id back as none, as an
// encoding that drops zero values does.
type emptyRuntimeIsNone struct{ *scheduler.Memory }

func (s *emptyRuntimeIsNone) Schedule(ctx context.Context, in scheduler.Intent) error {
	if in.RuntimeID != nil && *in.RuntimeID == "" {
		in.RuntimeID = nil
	}
	return s.Memory.Schedule(ctx, in)
}

func TestIntentProbeCatchesStoresWrongPastTheRuns(t *testing.T) {
	for _, tc := range []struct {
		name string
		open func() scheduler.Scheduler
	}{
		{"six-rows", func() scheduler.Scheduler { return evictingStore{scheduler.NewMemory(), 6} }},
		{"prefix-clear", func() scheduler.Scheduler { return prefixClearStore{scheduler.NewMemory()} }},
		{"empty-runtime-is-none", func() scheduler.Scheduler { return &emptyRuntimeIsNone{Memory: scheduler.NewMemory()} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &fatalRecorder{TB: t}
			Check(rec, SuiteOptions{Seeds: 40, NewStore: func() sim.SchedulerFactory {
				s := tc.open()
				return func(string) (scheduler.Scheduler, error) { return s, nil }
			}})
			if len(rec.msgs) != 1 {
				t.Fatalf("Check reported %d times, want once", len(rec.msgs))
			}
			for _, want := range []string{"PROPERTY  intent-table", "intent store probe"} {
				if !strings.Contains(rec.msgs[0], want) {
					t.Errorf("report lacks %q:\n%s", want, firstLines(rec.msgs[0], 8))
				}
			}
		})
	}
}
