package scenarios

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/syncsim/syncsim/faults"
)

// maxSeedHunt bounds the seeds tried to find a failing scenario for a bug.
const maxSeedHunt = 500

// failingSeed returns the first seed whose default scenario with bug
// planted violates a property, and that property.
func failingSeed(t testing.TB, bug string) (Scenario, string) {
	t.Helper()
	c := DefaultConfig
	c.Bug = bug
	for seed := uint64(1); seed <= maxSeedHunt; seed++ {
		s := FromSeed(seed, c)
		r, err := Run(s, RunOptions{TraceKeep: 1})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if r.Violation != nil {
			return s, r.Violation.Property
		}
	}
	t.Fatalf("bug %s: no failing seed in 1..%d", bug, maxSeedHunt)
	return Scenario{}, ""
}

// shrinkTestRuns is the run bound the tests give Shrink: enough for every
// planted bug to reach its fixed point, small enough to keep the suite fast.
const shrinkTestRuns = 600

// describeScenario prints a scenario for a failure message.
func describeScenario(s Scenario) string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed=%d backends=%d max-entries=%d profile=%s\n", s.Seed, s.Config.Backends, s.Config.MaxEntries, s.Profile)
	for _, o := range s.Ops {
		b.WriteString(o.String() + "\n")
	}
	return b.String()
}

func TestShrinkPlantedBugs(t *testing.T) {
	for _, bug := range []string{"single-alarm", "zero-based-attempts", "exhausted-clears", "forgetful-scheduler"} {
		t.Run(bug, func(t *testing.T) {
			s, prop := failingSeed(t, bug)
			got, st, err := Shrink(s, prop, ShrinkOptions{MaxRuns: shrinkTestRuns})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("seed %d: %s\n%s", s.Seed, st, describeScenario(got))
			if st.Property != prop {
				t.Errorf("stats property %q, want %q", st.Property, prop)
			}
			if st.StepsAfter != Steps(got.Ops) || st.StepsBefore != Steps(s.Ops) {
				t.Errorf("stats steps %d->%d, scenarios have %d->%d", st.StepsBefore, st.StepsAfter, Steps(s.Ops), Steps(got.Ops))
			}
			if st.StepsAfter > st.StepsBefore || st.StepsAfter > 8 {
				t.Errorf("steps %d->%d, want at most 8 and no more than before", st.StepsBefore, st.StepsAfter)
			}
			if got.Seed != s.Seed {
				t.Errorf("seed changed: %d -> %d", s.Seed, got.Seed)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("shrunk scenario invalid: %v", err)
			}
			// The result must fail under the caller's options, tail included.
			r, err := Run(got, RunOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Violation == nil || r.Violation.Property != prop {
				t.Errorf("shrunk scenario: violation %v, want property %s", r.Violation, prop)
			}
			again, st2, err := Shrink(s, prop, ShrinkOptions{MaxRuns: shrinkTestRuns})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(got, again, cmp.Comparer(func(a, b faults.Profile) bool { return a == b })); d != "" {
				t.Errorf("shrink not deterministic (-first +second):\n%s", d)
			}
			if st2.Runs != st.Runs {
				t.Errorf("runs differ between two shrinks: %d, %d", st.Runs, st2.Runs)
			}
		})
	}
}

func TestShrinkNotFailing(t *testing.T) {
	s := FromSeed(1, DefaultConfig)
	r, err := Run(s, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Violation != nil {
		t.Skipf("seed 1 of the correct code fails: %v", r.Violation)
	}
	if _, _, err := Shrink(s, "model", ShrinkOptions{}); !errors.Is(err, ErrNotFailing) {
		t.Errorf("non-failing scenario: err %v, want ErrNotFailing", err)
	}
	// A scenario failing with another property is not failing this one.
	f, prop := failingSeed(t, "single-alarm")
	other := "model"
	if prop == other {
		other = "alarm"
	}
	if _, _, err := Shrink(f, other, ShrinkOptions{}); !errors.Is(err, ErrNotFailing) {
		t.Errorf("scenario failing %s, asked to keep %s: err %v, want ErrNotFailing", prop, other, err)
	}
	bad := f
	bad.Config.Backends = 0
	if _, _, err := Shrink(bad, prop, ShrinkOptions{}); err == nil || errors.Is(err, ErrNotFailing) {
		t.Errorf("invalid scenario: err %v, want a validation error", err)
	}
}

func TestShrinkAnyProperty(t *testing.T) {
	s, prop := failingSeed(t, "exhausted-clears")
	_, st, err := Shrink(s, "", ShrinkOptions{MaxRuns: 50})
	if err != nil {
		t.Fatal(err)
	}
	if st.Property != prop {
		t.Errorf("property %q, want the input's %q", st.Property, prop)
	}
}

func TestShrinkMaxRuns(t *testing.T) {
	s, prop := failingSeed(t, "single-alarm")
	for _, n := range []int{1, 2, 10} {
		got, st, err := Shrink(s, prop, ShrinkOptions{MaxRuns: n})
		if err != nil {
			t.Fatal(err)
		}
		if st.Runs > n || !st.BudgetHit {
			t.Errorf("MaxRuns %d: runs %d budget-hit %v", n, st.Runs, st.BudgetHit)
		}
		r, err := Run(got, RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Violation == nil || r.Violation.Property != prop {
			t.Errorf("MaxRuns %d: result does not fail %s: %v", n, prop, r.Violation)
		}
	}
}

// fakeClock advances by step at every reading.
func fakeClock(step time.Duration) func() time.Time {
	now := time.Unix(0, 0)
	return func() time.Time {
		now = now.Add(step)
		return now
	}
}

func TestShrinkBudget(t *testing.T) {
	s, prop := failingSeed(t, "single-alarm")
	_, st, err := Shrink(s, prop, ShrinkOptions{Budget: 10 * time.Second, Clock: fakeClock(time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if !st.BudgetHit || st.Elapsed > 12*time.Second || st.Runs > 10 {
		t.Errorf("budget 10s, clock 1s a reading: %s", st)
	}
}

func TestShrinkSQLiteDir(t *testing.T) {
	s, prop := failingSeed(t, "single-alarm")
	s.Config.Scheduler = "sqlite"
	r, err := Run(s, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Violation == nil || r.Violation.Property != prop {
		t.Skipf("seed %d fails differently on sqlite: %v", s.Seed, r.Violation)
	}
	got, st, err := Shrink(s, prop, ShrinkOptions{MaxRuns: 100, Run: RunOptions{Dir: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	if st.StepsAfter > st.StepsBefore || got.Config.Scheduler != "sqlite" {
		t.Errorf("sqlite shrink: %s scheduler %s", st, got.Config.Scheduler)
	}
}

// TestShrinkEveryBug measures the shrinker on the first failing seed of
// every planted bug; the log is the table in the shrinker's report.
func TestShrinkEveryBug(t *testing.T) {
	if testing.Short() {
		t.Skip("measurement")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-24s %5s %-24s %6s %5s %8s\n", "bug", "seed", "property", "steps", "runs", "time")
	for _, bug := range Bugs {
		s, prop := failingSeed(t, bug.Name)
		_, st, err := Shrink(s, prop, ShrinkOptions{})
		if err != nil {
			t.Fatalf("%s: %v", bug.Name, err)
		}
		hit := ""
		if st.BudgetHit {
			hit = " budget-hit"
		}
		fmt.Fprintf(&b, "%-24s %5d %-24s %3d->%-2d %5d %8s%s\n", bug.Name, s.Seed, prop, st.StepsBefore, st.StepsAfter, st.Runs, st.Elapsed.Round(time.Millisecond), hit)
	}
	t.Log("\n" + b.String())
}
