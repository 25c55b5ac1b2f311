package faults

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// countingStore counts calls that reached the inner store.
type countingStore struct {
	scheduler.Scheduler
	calls int
}

func (s *countingStore) Get(ctx context.Context, b string) (scheduler.Intent, bool, error) {
	s.calls++
	return s.Scheduler.Get(ctx, b)
}

func (s *countingStore) Schedule(ctx context.Context, in scheduler.Intent) error {
	s.calls++
	return s.Scheduler.Schedule(ctx, in)
}

func (s *countingStore) Clear(ctx context.Context, b string) error {
	s.calls++
	return s.Scheduler.Clear(ctx, b)
}

func intent(attempt int) scheduler.Intent {
	return scheduler.Intent{Backend: "b1", Attempt: attempt, NotBefore: time.UnixMilli(1000), RuntimeID: scheduler.Ptr("b1-rt1")}
}

func TestSchedulerInjectsBeforeInnerCall(t *testing.T) {
	for _, k := range []Kind{StoreGet, StoreSchedule, StoreClear} {
		mem := scheduler.NewMemory()
		if err := mem.Schedule(ctx, intent(1)); err != nil {
			t.Fatal(err)
		}
		inner := &countingStore{Scheduler: mem}
		pr := Only(k, 1)
		s := NewScheduler(inner, NoHooks{}, rand.New(rand.NewPCG(1, 1)), &pr)
		var err error
		switch k {
		case StoreGet:
			_, _, err = s.Get(ctx, "b1")
		case StoreSchedule:
			err = s.Schedule(ctx, intent(2))
		case StoreClear:
			err = s.Clear(ctx, "b1")
		}
		checkInjected(t, err, k)
		if inner.calls != 0 {
			t.Errorf("%s: inner store called %d times", k, inner.calls)
		}
		if got, ok, _ := mem.Get(ctx, "b1"); !ok || !got.Equal(intent(1)) {
			t.Errorf("%s: stored intent changed: %v %t", k, got, ok)
		}
		calls := s.Calls()
		if len(calls) != 1 || calls[0].Fault != k || calls[0].Err != err.Error() {
			t.Errorf("%s: record %v", k, calls)
		}
		if workspace.IsTransportFailure(err) {
			t.Errorf("%s: store fault classified as transport", k)
		}
		// With faults off the call goes through.
		s.SetFaults(false)
		if _, _, err := s.Get(ctx, "b1"); err != nil {
			t.Errorf("%s: faults off: %v", k, err)
		}
	}
}

func TestSchedulerRecordAndList(t *testing.T) {
	hooks := &actorHooks{actor: "alarm"}
	pr := Off()
	s := NewScheduler(scheduler.NewMemory(), hooks, rand.New(rand.NewPCG(1, 1)), &pr)
	mark := s.Mark()
	_, _, _ = s.Get(ctx, "b1")
	_ = s.Schedule(ctx, intent(1))
	_, _, _ = s.Get(ctx, "b1")
	_ = s.Clear(ctx, "b1")
	var got []string
	for _, c := range s.CallsSince(mark) {
		got = append(got, c.String())
	}
	want := []string{
		"#1 alarm store-get b1 not-found",
		"#2 alarm store-schedule b1 {backend b1 runtime b1-rt1 attempt 1 notBefore 1000}",
		"#3 alarm store-get b1 {backend b1 runtime b1-rt1 attempt 1 notBefore 1000}",
		"#4 alarm store-clear b1",
	}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("call %d = %q, want %q", i, got[i], want[i])
		}
	}
	if want := []string{"store.get", "store.schedule", "store.get", "store.clear"}; len(hooks.points) != 4 || hooks.points[1] != want[1] {
		t.Errorf("block points %v", hooks.points)
	}
	if l, err := s.List(ctx); err != nil || len(l) != 0 {
		t.Errorf("List = %v, %v", l, err)
	}
	bare := NewScheduler(&countingStore{Scheduler: scheduler.NewMemory()}, nil, rand.New(rand.NewPCG(1, 1)), nil)
	if _, err := bare.List(ctx); !errors.Is(err, ErrNoList) {
		t.Errorf("List on a non-Lister: %v", err)
	}
}
