package scheduler_test

import (
	"slices"
	"testing"
	"time"

	"github.com/syncsim/syncsim/scheduler"
)

func at(sec int, backend string, attempt int) scheduler.Intent {
	return scheduler.Intent{Backend: backend, Attempt: attempt, NotBefore: t0.Add(time.Duration(sec) * time.Second)}
}

func TestAlarmTime(t *testing.T) {
	const max = 5
	cases := []struct {
		name    string
		intents []scheduler.Intent
		want    int // seconds after t0; -1 for no alarm
	}{
		{"none", nil, -1},
		{"earliest wins", []scheduler.Intent{at(9, "a", 1), at(3, "b", 2), at(7, "c", 1)}, 3},
		{"attempt == max is live (one more real pull)", []scheduler.Intent{at(9, "a", 1), at(2, "b", max)}, 2},
		{"attempt > max never pulls", []scheduler.Intent{at(9, "a", 1), at(2, "b", max+1)}, 9},
		{"only exhausted past max", []scheduler.Intent{at(2, "b", max+1)}, -1},
		{"zero attempt is live", []scheduler.Intent{at(4, "a", 0)}, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := scheduler.AlarmTime(tc.intents, max)
			if tc.want < 0 {
				if ok {
					t.Errorf("AlarmTime = %v, want none", got)
				}
				return
			}
			if want := t0.Add(time.Duration(tc.want) * time.Second); !ok || !got.Equal(want) {
				t.Errorf("AlarmTime = %v, %v; want %v", got, ok, want)
			}
		})
	}
}

// An intent handed over and stored unchanged afterwards (exhausted) is
// settled: it must not arm the alarm again (it would fire in a loop).
func TestAlarmRuleSettled(t *testing.T) {
	intents := []scheduler.Intent{at(5, "exhausted", 3), at(8, "next", 2), at(1, "over", 4)}
	rule := scheduler.AlarmRule{MaxAttempts: 3}.Settle(intents[:1], intents)
	if got, ok := rule.Next(intents); !ok || !got.Equal(t0.Add(8*time.Second)) {
		t.Errorf("Next = %v, %v; want t0+8s", got, ok)
	}
	if due := rule.Due(intents, t0.Add(10*time.Second)); !slices.Equal(due, []string{"next"}) {
		t.Errorf("Due = %v, want [next]", due)
	}
	// A restarted host (nothing settled) gives the exhausted one its pull.
	fresh := scheduler.AlarmRule{MaxAttempts: 3}
	if due := fresh.Due(intents, t0.Add(10*time.Second)); !slices.Equal(due, []string{"exhausted", "next"}) {
		t.Errorf("fresh Due = %v", due)
	}
	// Pure: the input is not reordered.
	if intents[0].Backend != "exhausted" {
		t.Errorf("Due reordered its input")
	}
}

// The race syncsim found in the time-based rule: an intent built before the
// alarm fired lands after the host handed everything due over, with a
// NotBefore in the past. It equals nothing settled, so it is due at once.
func TestAlarmRuleLateIntentIsNotStranded(t *testing.T) {
	handed := []scheduler.Intent{at(1, "b1", 1)}
	late := at(1, "b0", 1) // built at t0, stored after the firing at t0+1s
	rule := scheduler.AlarmRule{MaxAttempts: 1}.Settle(handed, handed)
	stored := []scheduler.Intent{late, handed[0]}
	if got, ok := rule.Next(stored); !ok || !got.Equal(t0.Add(time.Second)) {
		t.Errorf("Next = %v, %v; want the late intent's t0+1s", got, ok)
	}
}

// Settlement lasts while the intent is stored unchanged, and a rewrite
// (a new attempt, a new target) makes it live again.
func TestAlarmRuleSettlementEndsOnRewrite(t *testing.T) {
	ex := at(5, "a", 3)
	rule := scheduler.AlarmRule{MaxAttempts: 3}.Settle([]scheduler.Intent{ex}, []scheduler.Intent{ex})
	if !rule.IsSettled(ex) {
		t.Fatal("not settled")
	}
	kept := rule.Settle(nil, []scheduler.Intent{ex})
	if !kept.IsSettled(ex) {
		t.Error("a settlement must survive a firing that did not hand it over")
	}
	rewritten := at(9, "a", 1)
	if rule.IsSettled(rewritten) {
		t.Error("a rewritten intent must be live again")
	}
	if gone := rule.Settle(nil, []scheduler.Intent{rewritten}); len(gone.Settled) != 0 {
		t.Errorf("settlement of a rewritten intent kept: %v", gone.Settled)
	}
}

func TestDue(t *testing.T) {
	intents := []scheduler.Intent{at(5, "c", 1), at(1, "a", 5), at(5, "b", 2), at(6, "d", 1), at(0, "e", 6)}
	if got := scheduler.Due(intents, 5, t0.Add(5*time.Second)); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("Due = %v, want [a b c] (inclusive of now, sorted, e past max)", got)
	}
	if got := scheduler.Due(intents, 5, t0.Add(-time.Second)); len(got) != 0 {
		t.Errorf("Due before everything = %v", got)
	}
}
