package scenarios

import (
	"context"
	"testing"
	"time"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
)

// The suite must catch the two store designs that lose work: the seed
// articles' single alarm, and a store that forgets at host restart. Both are
// plugged in exactly as a user plugs in their own store.
func TestPluggedInSingleAlarmFails(t *testing.T) {
	rep := mustSweep(t, SuiteOptions{Seeds: 300, NewStore: func() sim.SchedulerFactory {
		mem := scheduler.NewMemory() // durable across this scenario's host restarts
		return func(string) (scheduler.Scheduler, error) { return &userSingleAlarm{Memory: mem}, nil }
	}})
	requireFailure(t, rep, "alarm", "liveness-intents")
}

// userSingleAlarm is a user's store that sets the host's alarm itself
// (sim.AlarmOwner), as the seed articles do: every Schedule overwrites the
// one alarm with its own NotBefore, every Clear cancels it, whatever other
// backends still wait.
type userSingleAlarm struct {
	*scheduler.Memory
	at  time.Time
	set bool
}

func (s *userSingleAlarm) Schedule(ctx context.Context, in scheduler.Intent) error {
	if err := s.Memory.Schedule(ctx, in); err != nil {
		return err
	}
	s.at, s.set = in.NotBefore, true
	return nil
}

func (s *userSingleAlarm) Clear(ctx context.Context, backend string) error {
	if err := s.Memory.Clear(ctx, backend); err != nil {
		return err
	}
	s.set = false
	return nil
}

func (s *userSingleAlarm) Alarm() (time.Time, bool) { return s.at, s.set }
func (s *userSingleAlarm) AlarmFired()              { s.set = false }

var _ sim.AlarmOwner = (*userSingleAlarm)(nil)

func TestPluggedInForgetfulStoreFails(t *testing.T) {
	rep := mustSweep(t, SuiteOptions{Seeds: 300, NewStore: func() sim.SchedulerFactory {
		return func(string) (scheduler.Scheduler, error) {
			return scheduler.NewMemory(), nil // a new, empty store at every host start
		}
	}})
	requireFailure(t, rep, "intent-table")
}

// The correct durable stores pass scenarios.Check at its default budget,
// exactly as a user runs it: no property (store-error included) raises a
// false alarm on a store that fails only when the harness tells it to.
// SQLite is TestMyStoreInTheWholeSystem (readme_test.go), the README's
// snippet.
func TestPluggedInDurableStoresPass(t *testing.T) {
	for _, tc := range []struct {
		name string
		open func() sim.SchedulerFactory
	}{
		{"memory", sim.MemoryScheduler},
	} {
		t.Run(tc.name, func(t *testing.T) {
			Check(t, SuiteOptions{NewStore: tc.open})
		})
	}
}

func mustSweep(t *testing.T, o SuiteOptions) SweepReport {
	t.Helper()
	rep, err := Sweep(o)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func requireFailure(t *testing.T, rep SweepReport, properties ...string) {
	t.Helper()
	if len(rep.Failures) == 0 {
		t.Fatalf("no scenario failed in %d seeds; the suite missed a broken store", rep.Seeds)
	}
	f := rep.Failures[0]
	for _, p := range properties {
		if f.Violation.Property == p {
			t.Logf("found at seed %d (%d of %d seeds failed):\n%s", f.Seed, len(rep.Failures), rep.Seeds, f.Report())
			return
		}
	}
	t.Fatalf("first failure broke %q, want one of %v:\n%s", f.Violation.Property, properties, f.Report())
}
