package scenarios

import (
	"context"
	"testing"
	"time"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
)

// millisecondStore keeps NotBefore to the millisecond, as a store built on
// the original's Date.now() numbers would.
type millisecondStore struct{ *scheduler.Memory }

func (s millisecondStore) Schedule(ctx context.Context, in scheduler.Intent) error {
	in.NotBefore = in.NotBefore.Truncate(time.Millisecond)
	return s.Memory.Schedule(ctx, in)
}

func newMillisecondStore() sim.SchedulerFactory {
	m := millisecondStore{scheduler.NewMemory()}
	return func(string) (scheduler.Scheduler, error) { return m, nil }
}

// TestTimePrecision: the clock reads sub-millisecond instants on a share of
// seeds, so a store that keeps milliseconds fails intent-table, unless the
// suite is told the store's precision.
func TestTimePrecision(t *testing.T) {
	exact, err := Sweep(SuiteOptions{NewStore: newMillisecondStore, Seeds: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(exact.Failures) == 0 {
		t.Fatal("a store that keeps milliseconds passed 100 seeds compared to the nanosecond")
	}
	if p := exact.Failures[0].Violation.Property; p != "intent-table" {
		t.Fatalf("caught as %s, want intent-table: %v", p, exact.Failures[0].Violation)
	}
	told, err := Sweep(SuiteOptions{NewStore: newMillisecondStore, Seeds: 100, TimePrecision: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range told.Failures {
		t.Fatalf("with TimePrecision 1ms, seed %d failed: %v", f.Seed, f.Violation)
	}
}
