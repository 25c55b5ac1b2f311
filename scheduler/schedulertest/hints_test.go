package schedulertest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/scheduler/schedulertest"
)

// secondsStore keeps NotBefore to the second, like a store with a
// seconds-resolution timestamp column.
type secondsStore struct{ *scheduler.Memory }

func (s secondsStore) Schedule(ctx context.Context, in scheduler.Intent) error {
	in.NotBefore = in.NotBefore.Truncate(time.Second)
	return s.Memory.Schedule(ctx, in)
}

func openSeconds() (schedulertest.Instance, error) {
	return schedulertest.Instance{Scheduler: secondsStore{scheduler.NewMemory()}}, nil
}

// A store that truncates NotBefore gets a hint naming the option that
// declares it, and passes once it is declared.
func TestPrecisionHint(t *testing.T) {
	err := schedulertest.Check(openSeconds, schedulertest.Options{})
	if err == nil || !strings.Contains(err.Error(), "declare schedulertest.Options{TimePrecision: time.Second}") {
		t.Fatalf("no precision hint in:\n%v", err)
	}
	if err := schedulertest.Check(openSeconds, schedulertest.Options{TimePrecision: time.Second}); err != nil {
		t.Fatalf("with the precision declared:\n%v", err)
	}
}

// microsStore keeps NotBefore to the microsecond: finer than a declared
// millisecond, which it must pass (the whole-system check compares both
// sides truncated too). It once failed every comparing check.
type microsStore struct{ *scheduler.Memory }

func (s microsStore) Schedule(ctx context.Context, in scheduler.Intent) error {
	in.NotBefore = in.NotBefore.Truncate(time.Microsecond)
	return s.Memory.Schedule(ctx, in)
}

func TestFinerThanDeclaredPrecisionPasses(t *testing.T) {
	open := func() (schedulertest.Instance, error) {
		return schedulertest.Instance{Scheduler: microsStore{scheduler.NewMemory()}}, nil
	}
	if err := schedulertest.Check(open, schedulertest.Options{TimePrecision: time.Millisecond}); err != nil {
		t.Fatalf("a microsecond store declared at a millisecond:\n%v", err)
	}
	if err := schedulertest.Check(openSeconds, schedulertest.Options{TimePrecision: time.Millisecond}); err == nil {
		t.Fatal("a seconds store declared at a millisecond passed")
	}
}

// listless is a correct store without List.
type listless struct{ m *scheduler.Memory }

func (l listless) Get(ctx context.Context, b string) (scheduler.Intent, bool, error) {
	return l.m.Get(ctx, b)
}
func (l listless) Schedule(ctx context.Context, in scheduler.Intent) error {
	return l.m.Schedule(ctx, in)
}
func (l listless) Clear(ctx context.Context, b string) error { return l.m.Clear(ctx, b) }

// A store without List fails with the reason a host needs it, unless it
// declares NoList.
func TestListerRequired(t *testing.T) {
	open := func() (schedulertest.Instance, error) {
		return schedulertest.Instance{Scheduler: listless{scheduler.NewMemory()}}, nil
	}
	err := schedulertest.Check(open, schedulertest.Options{})
	if err == nil || !strings.Contains(err.Error(), "Lister: schedulertest_test.listless does not implement scheduler.Lister") {
		t.Fatalf("want the missing List named, got:\n%v", err)
	}
	if err := schedulertest.Check(open, schedulertest.Options{NoList: true}); err != nil {
		t.Fatalf("with NoList declared:\n%v", err)
	}
}
