package scenarios

import (
	"context"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
)

// bufferedScheduler acknowledges every write but keeps it in memory: only
// Close writes the table to its "disk". A clean shutdown loses nothing; a
// crash loses everything since the last open.
type bufferedScheduler struct {
	*scheduler.Memory                   // what this handle has been told
	disk              *scheduler.Memory // what survives the process
}

// bufferedFactory returns the factory of one scenario: every open loads the
// disk into a fresh handle.
func bufferedFactory() sim.SchedulerFactory {
	disk := scheduler.NewMemory()
	return func(string) (scheduler.Scheduler, error) {
		m := scheduler.NewMemory()
		if err := copyIntents(context.Background(), disk, m); err != nil {
			return nil, err
		}
		return &bufferedScheduler{Memory: m, disk: disk}, nil
	}
}

func (b *bufferedScheduler) Close() error { return copyIntents(context.Background(), b.Memory, b.disk) }

// copyIntents makes dst hold exactly what src holds.
func copyIntents(ctx context.Context, src, dst *scheduler.Memory) error {
	old, err := dst.List(ctx)
	if err != nil {
		return err
	}
	for _, in := range old {
		if err := dst.Clear(ctx, in.Backend); err != nil {
			return err
		}
	}
	all, err := src.List(ctx)
	if err != nil {
		return err
	}
	for _, in := range all {
		if err := dst.Schedule(ctx, in); err != nil {
			return err
		}
	}
	return nil
}

// A host restart is a crash: the store handles are dropped without Close.
// A store that flushes only at Close survives a clean shutdown and loses its
// acknowledged intents at a crash, where the intent table no longer matches
// what the workspace was told was written.
func TestHostCrashDropsStoreHandles(t *testing.T) {
	for _, tc := range []struct {
		restart string
		want    string // violated property, "" for none
	}{
		{"host-restart", "intent-table"},
		{"host-restart clean", ""},
	} {
		t.Run(tc.restart, func(t *testing.T) {
			s, err := Parse("run seed=1 backends=1 scheduler=memory bug=none initial=1s max=1m attempts=5 max-entries=0\n" +
				"profile off\nexec b0 defer writes=0\n" + tc.restart + "\n")
			if err != nil {
				t.Fatal(err)
			}
			r, err := Run(s, RunOptions{Scheduler: bufferedFactory()})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if r.Violation != nil {
				got = r.Violation.Property
			}
			if got != tc.want {
				t.Fatalf("violation %v, want %q", r.Violation, tc.want)
			}
		})
	}
}

// The default sweep catches such a store plugged into Check.
func TestCheckCatchesAStoreThatFlushesOnlyOnClose(t *testing.T) {
	rec := &fatalRecorder{TB: t}
	Check(rec, SuiteOptions{NewStore: bufferedFactory})
	if len(rec.msgs) != 1 || !strings.Contains(rec.msgs[0], "PROPERTY  intent-table") {
		t.Fatalf("Check reported %q, want one intent-table failure", rec.msgs)
	}
	t.Logf("%s", firstLines(rec.msgs[0], 4))
}
