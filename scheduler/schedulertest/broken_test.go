package schedulertest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/scheduler/schedulertest"
)

// cutKeyStore keys intents by the first 64 bytes of the backend id, like a
// VARCHAR(64) column: two long ids that differ past it share one row.
type cutKeyStore struct{ *scheduler.Memory }

func cut(id string) string { return id[:min(len(id), 64)] }

func (s cutKeyStore) Schedule(ctx context.Context, in scheduler.Intent) error {
	in.Backend = cut(in.Backend)
	return s.Memory.Schedule(ctx, in)
}

func (s cutKeyStore) Get(ctx context.Context, backend string) (scheduler.Intent, bool, error) {
	in, ok, err := s.Memory.Get(ctx, cut(backend))
	if ok {
		in.Backend = backend
	}
	return in, ok, err
}

func (s cutKeyStore) Clear(ctx context.Context, backend string) error {
	return s.Memory.Clear(ctx, cut(backend))
}

// laterWinsStore keeps a replacement only when it is due later than the
// stored intent, like a merge that resolves by timestamp.
type laterWinsStore struct{ *scheduler.Memory }

func (s laterWinsStore) Schedule(ctx context.Context, in scheduler.Intent) error {
	if old, ok, err := s.Memory.Get(ctx, in.Backend); err != nil {
		return err
	} else if ok && !in.NotBefore.After(old.NotBefore) {
		return nil
	}
	return s.Memory.Schedule(ctx, in)
}

// Stores wrong only at inputs a plain test never writes are reported by
// the check that writes them.
func TestBrokenStoresAreReported(t *testing.T) {
	for _, tc := range []struct {
		name  string
		open  func() scheduler.Scheduler
		check string
	}{
		{"keys cut to 64 bytes", func() scheduler.Scheduler { return cutKeyStore{scheduler.NewMemory()} }, "BackendsIsolated"},
		{"a replacement kept only when due later", func() scheduler.Scheduler { return laterWinsStore{scheduler.NewMemory()} }, "UpsertReplaces"},
	} {
		err := schedulertest.Check(func() (schedulertest.Instance, error) {
			return schedulertest.Instance{Scheduler: tc.open()}, nil
		}, schedulertest.Options{NoList: true})
		if err == nil || !strings.Contains(err.Error(), tc.check+":") {
			t.Errorf("%s: want a %s finding, got %v", tc.name, tc.check, err)
		}
	}
}
