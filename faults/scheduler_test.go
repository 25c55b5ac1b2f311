package faults

import (
	"context"
	"errors"
	"fmt"
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

// failingStore returns err from every call, as a broken inner store would.
type failingStore struct {
	scheduler.Scheduler
	err error
}

func (s failingStore) Get(context.Context, string) (scheduler.Intent, bool, error) {
	return scheduler.Intent{}, false, s.err
}
func (s failingStore) Schedule(context.Context, scheduler.Intent) error { return s.err }
func (s failingStore) Clear(context.Context, string) error              { return s.err }

// An error the inner store returns by itself is recorded as uninjected; one
// that wraps ErrInjected (a harness layer below the wrapper planted it)
// keeps its kind; a fault the wrapper drew itself is never uninjected.
func TestSchedulerTellsInjectedFromOwnErrors(t *testing.T) {
	own := errors.New("disk I/O error")
	below := (*Secrets)(nil).injected(StoreClear, "planted below")
	for _, tc := range []struct {
		name       string
		inner      error
		draw       Kind // a fault the wrapper injects itself (NoFault: none)
		uninjected bool
		fault      Kind
	}{
		{"own error", own, NoFault, true, NoFault},
		{"own error wrapped", fmt.Errorf("get: %w", own), NoFault, true, NoFault},
		{"injected below", fmt.Errorf("clear: %w", below), NoFault, false, StoreClear},
		{"drawn here", own, StoreGet, false, StoreGet},
		{"no error", nil, NoFault, false, NoFault},
	} {
		pr := Off()
		if tc.draw != NoFault {
			pr = Only(tc.draw, 1)
		}
		s := NewScheduler(failingStore{scheduler.NewMemory(), tc.inner}, NoHooks{}, rand.New(rand.NewPCG(1, 1)), &pr)
		_, _, _ = s.Get(ctx, "b1")
		_ = s.Schedule(ctx, intent(1))
		_ = s.Clear(ctx, "b1")
		for _, c := range s.Calls() {
			fault := tc.fault
			if tc.draw != NoFault && c.Op != StoreOpGet {
				// Only get draws the wrapper's own fault; the others reach
				// the inner store and fail by themselves.
				fault = NoFault
			}
			uninjected := tc.uninjected || (tc.draw != NoFault && c.Op != StoreOpGet)
			if c.Uninjected != uninjected || c.Fault != fault || (c.Err != "") != (tc.inner != nil || tc.draw != NoFault) {
				t.Errorf("%s: %s recorded uninjected=%t fault=%s err=%q, want uninjected=%t fault=%s",
					tc.name, c.Op, c.Uninjected, c.Fault, c.Err, uninjected, fault)
			}
		}
	}
}
