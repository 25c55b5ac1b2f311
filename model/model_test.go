package model

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/syncsim/syncsim/scheduler"
)

var t0 = time.UnixMilli(1000)

// SPEC 2.3 examples.
func TestDelay(t *testing.T) {
	for _, c := range []struct {
		o       Options
		attempt int
		want    time.Duration
	}{
		{Options{InitialDelay: 100 * time.Millisecond, MaxDelay: 150 * time.Millisecond}, 1, 100 * time.Millisecond},
		{Options{InitialDelay: 100 * time.Millisecond, MaxDelay: 150 * time.Millisecond}, 2, 150 * time.Millisecond},
		{Options{InitialDelay: time.Second, MaxDelay: time.Minute}, 5, 16 * time.Second},
		{Options{InitialDelay: time.Second, MaxDelay: time.Minute}, 0, time.Second},
		{Options{InitialDelay: time.Second, MaxDelay: time.Minute}, 1 << 20, time.Minute},
	} {
		if got := c.o.Delay(c.attempt); got != c.want {
			t.Errorf("%+v attempt %d: delay %s, want %s", c.o, c.attempt, got, c.want)
		}
	}
}

// SPEC 9 R7: a failing backend with max 3 goes pending 2, pending 3,
// exhausted 3, and the intent stays.
func TestR7BackoffThenExhaustionStaysVisible(t *testing.T) {
	o := Options{InitialDelay: 100 * time.Millisecond, MaxDelay: 150 * time.Millisecond, MaxAttempts: 3}
	s := Empty()
	s, res, err := s.Exec(o, Exec{Backend: "sandbox", PullFailed: true}, t0,
		[]StoreCall{{Op: "get", Backend: "sandbox"}, {Op: "schedule", Backend: "sandbox"}})
	if err != nil || res.Status != "pending" || !res.HasError {
		t.Fatalf("exec: %+v %v", res, err)
	}
	var statuses []string
	var attempts []int
	for range 3 {
		store := []StoreCall{{Op: "get", Backend: "sandbox"}}
		in, _ := s.Intent("sandbox")
		if in.Attempt < o.MaxAttempts {
			store = append(store, StoreCall{Op: "schedule", Backend: "sandbox"})
		}
		var r RetryResult
		s, r, err = s.Retry(o, "sandbox", t0, Pull{Kind: PullFailed}, store)
		if err != nil {
			t.Fatal(err)
		}
		statuses, attempts = append(statuses, r.Status), append(attempts, r.Attempt)
	}
	if d := cmp.Diff([]string{"pending", "pending", "exhausted"}, statuses); d != "" {
		t.Error(d)
	}
	if d := cmp.Diff([]int{2, 3, 3}, attempts); d != "" {
		t.Error(d)
	}
	want := []scheduler.Intent{{Backend: "sandbox", Attempt: 3, NotBefore: t0.Add(150 * time.Millisecond)}}
	if d := cmp.Diff(want, s.Intents()); d != "" {
		t.Errorf("intent after exhaustion (-want +got):\n%s", d)
	}
}

// SPEC 3.3's table, one row per case.
func TestSchedulePendingRules(t *testing.T) {
	o := Options{InitialDelay: time.Second, MaxDelay: time.Minute, MaxAttempts: 5}
	rtA, rtB := scheduler.Ptr("a"), scheduler.Ptr("b")
	old := scheduler.Intent{Backend: "x", RuntimeID: rtA, Attempt: 3, NotBefore: t0, TargetCursor: scheduler.Ptr(scheduler.At(5))}
	getSched := []StoreCall{{Op: "get", Backend: "x"}, {Op: "schedule", Backend: "x"}}
	for _, c := range []struct {
		name  string
		start []scheduler.Intent
		e     Exec
		store []StoreCall
		want  []scheduler.Intent
	}{
		{"wait, none", nil, Exec{Backend: "x", PullFailed: true, Runtime: rtA}, getSched,
			[]scheduler.Intent{{Backend: "x", RuntimeID: rtA, Attempt: 1, NotBefore: t0.Add(time.Second)}}},
		{"wait, same runtime coalesces", []scheduler.Intent{old}, Exec{Backend: "x", PullFailed: true, Runtime: rtA},
			[]StoreCall{{Op: "get", Backend: "x"}}, []scheduler.Intent{old}},
		{"wait, other runtime replaces", []scheduler.Intent{old}, Exec{Backend: "x", PullFailed: true, Runtime: rtB}, getSched,
			[]scheduler.Intent{{Backend: "x", RuntimeID: rtB, Attempt: 1, NotBefore: t0.Add(time.Second)}}},
		{"defer, same runtime widens", []scheduler.Intent{old}, Exec{Backend: "x", Mode: Defer, Runtime: rtA, Captured: scheduler.Ptr(scheduler.At(2))}, getSched,
			[]scheduler.Intent{{Backend: "x", RuntimeID: rtA, Attempt: 1, NotBefore: t0.Add(time.Second), TargetCursor: scheduler.Ptr(scheduler.At(5))}}},
		{"defer, capture fails: unfenced", nil, Exec{Backend: "x", Mode: Defer, Runtime: rtA}, getSched,
			[]scheduler.Intent{{Backend: "x", RuntimeID: rtA, Attempt: 1, NotBefore: t0.Add(time.Second)}}},
		{"get refused: nothing stored", nil, Exec{Backend: "x", PullFailed: true}, []StoreCall{{Op: "get", Backend: "x", Failed: true}}, []scheduler.Intent{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _, err := FromIntents(c.start).Exec(o, c.e, t0, c.store)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(c.want, s.Intents()); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// The model names the store call it expected when the SUT made another.
func TestStoreCallMismatchIsReported(t *testing.T) {
	o := Options{InitialDelay: time.Second, MaxDelay: time.Minute, MaxAttempts: 5}
	s := FromIntents([]scheduler.Intent{{Backend: "x", Attempt: 1, NotBefore: t0}})
	_, _, err := s.Retry(o, "x", t0, Pull{Kind: PullComplete}, []StoreCall{{Op: "get", Backend: "x"}, {Op: "schedule", Backend: "x"}})
	if err == nil || err.Error() != "expected store call clear x (the model), got schedule x" {
		t.Fatalf("err = %v", err)
	}
}

// A step never mutates the state it was called on.
func TestStepsArePure(t *testing.T) {
	o := Options{InitialDelay: time.Second, MaxDelay: time.Minute, MaxAttempts: 5}
	s := FromIntents([]scheduler.Intent{{Backend: "x", Attempt: 1, NotBefore: t0}})
	before := s.Intents()
	if _, _, err := s.Retry(o, "x", t0, Pull{Kind: PullComplete}, []StoreCall{{Op: "get", Backend: "x"}, {Op: "clear", Backend: "x"}}); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(before, s.Intents()); d != "" {
		t.Errorf("state changed (-before +after):\n%s", d)
	}
}

// SPEC 3.3 step 1 and R13: without a scheduler a wait-mode failure is
// pending with an error and stores nothing; a retry is rejected before
// any store call; a deferred exec never reaches the post-command step.
func TestNoScheduler(t *testing.T) {
	o := Options{InitialDelay: time.Second, MaxDelay: time.Minute, MaxAttempts: 5, NoScheduler: true}
	s, res, err := Empty().Exec(o, Exec{Backend: "sandbox", PullFailed: true}, t0, nil)
	if err != nil || res.Status != "pending" || !res.HasError || len(s.Intents()) != 0 {
		t.Fatalf("wait failure: %+v %v %v", res, err, s.Intents())
	}
	if _, _, err := Empty().Exec(o, Exec{Backend: "sandbox", PullFailed: true}, t0, []StoreCall{{Op: "get", Backend: "sandbox"}}); err == nil {
		t.Fatal("a store call without a scheduler was accepted")
	}
	if _, _, err := Empty().Exec(o, Exec{Backend: "sandbox", Mode: Defer}, t0, nil); err == nil {
		t.Fatal("a deferred exec without a scheduler reached the post-command step")
	}
	_, r, err := Empty().Retry(o, "sandbox", t0, Pull{Kind: PullFailed}, nil)
	if err != nil || !r.Rejected || r.Pulled {
		t.Fatalf("retry: %+v %v", r, err)
	}
}
