package scenarios

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syncsim/syncsim/scenarios/internal/benchapi"
	"github.com/syncsim/syncsim/sim/oracle"
)

// TestArmRoundsInterleave: after one unmeasured round, every round runs
// each arm once, in order, on the same seeds (arm A round 1, arm B round 1,
// arm A round 2, ...), and each arm keeps exactly the measured rounds.
func TestArmRoundsInterleave(t *testing.T) {
	var mu sync.Mutex
	var calls []string
	recording := func(name string) benchArm {
		return benchArm{name: name, cfg: MemoryConfig, run: func(s Scenario) (armRun, error) {
			mu.Lock()
			calls = append(calls, fmt.Sprintf("%s:%d", name, s.Seed))
			mu.Unlock()
			return armRun{events: 3, sim: time.Second, violated: s.Seed == 8}, nil
		}}
	}
	const rounds = benchapi.MinRounds
	arms, err := runArmRounds([]benchArm{recording("a"), recording("b")}, 7, 2, rounds, 1, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	seeds := []string{"7", "8"}
	var want []string
	for range rounds + 1 { // the warm-up, then the measured rounds
		for _, a := range []string{"a", "b"} {
			for _, s := range seeds {
				want = append(want, a+":"+s)
			}
		}
	}
	if !slices.Equal(calls, want) {
		t.Errorf("runs in this order:\n%s\nwant:\n%s", strings.Join(calls, " "), strings.Join(want, " "))
	}
	for i, a := range arms {
		if a.Name != []string{"a", "b"}[i] || a.Seeds != 2 || len(a.Rounds) != rounds {
			t.Fatalf("arm %d: %s, %d seeds, %d rounds; want %d rounds of 2 seeds", i, a.Name, a.Seeds, len(a.Rounds), rounds)
		}
		for k, r := range a.Rounds {
			if r.Events != 6 || r.Sim != 2*time.Second || r.Violations != 1 || r.Wall <= 0 {
				t.Errorf("arm %s round %d: %+v, want 6 events, 2s simulated, 1 violation, some wall time", a.Name, k+1, r)
			}
		}
	}
}

// TestArmRoundsStopAtAnError: a run that could not be set up ends the
// bench with the arm and seed named.
func TestArmRoundsStopAtAnError(t *testing.T) {
	broken := benchArm{name: "broken", cfg: MemoryConfig, run: func(s Scenario) (armRun, error) {
		return armRun{}, errors.New("test error")
	}}
	_, err := runArmRounds([]benchArm{broken}, 5, 1, benchapi.MinRounds, 1, func(string) {})
	if err == nil || !strings.Contains(err.Error(), "broken arm") || !strings.Contains(err.Error(), "seed 5") {
		t.Fatalf("err = %v, want one naming the broken arm and seed 5", err)
	}
}

// TestArmsOfThisBuild: the arms run in the documented order, and the
// checkers-off arm runs the memory arm's scenarios judging no property.
func TestArmsOfThisBuild(t *testing.T) {
	var names []string
	for _, a := range benchArms() {
		names = append(names, a.name)
		if a.name == benchapi.ArmNone && (a.cfg.Properties != oracle.None || a.cfg.SQLiteShare != 0) {
			t.Errorf("arm none runs %+v, want MemoryConfig judging no property", a.cfg)
		}
	}
	want := []string{benchapi.ArmDefault, benchapi.ArmMemory, benchapi.ArmNone, benchapi.ArmDirect, benchapi.ArmDouble}
	if !slices.Equal(names, want) {
		t.Errorf("arms %v, want %v", names, want)
	}
}

// TestArmFiguresSplitTheOverhead: with a checkers-off arm, the overhead
// over the direct runner splits into the oracle's cost and the driver's,
// whose product it is; without one, neither is reported.
func TestArmFiguresSplitTheOverhead(t *testing.T) {
	round := func(ms int) benchapi.Round { return benchapi.Round{CPU: time.Duration(ms) * time.Millisecond} }
	arm := func(name string, ms int) benchapi.Arm {
		a := benchapi.Arm{Name: name, Seeds: 10}
		for range benchapi.MinRounds {
			a.Rounds = append(a.Rounds, round(ms))
		}
		return a
	}
	r := benchapi.Report{Workers: 2, Arms: []benchapi.Arm{
		arm(benchapi.ArmDefault, 250), arm(benchapi.ArmMemory, 60), arm(benchapi.ArmNone, 20),
		arm(benchapi.ArmDirect, 10), arm(benchapi.ArmDouble, 120),
	}}
	fillArmFigures(&r)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"scenarios/s, memory", r.ScenariosPerSec.Median, 10 / 0.060},
		{"scenarios/s, default", r.ScenariosPerSecDefault.Median, 10 / 0.250},
		{"overhead", r.OverheadRatio.Median, 6},
		{"oracle cost", r.OracleCost.Median, 3},
		{"driver cost", r.DriverCost.Median, 2},
		{"determinism cost", r.DeterminismCostRatio.Median, 2},
	} {
		if d := c.got - c.want; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	r.Arms = slices.DeleteFunc(r.Arms, func(a benchapi.Arm) bool { return a.Name == benchapi.ArmNone })
	r.OracleCost, r.DriverCost = benchapi.Spread{}, benchapi.Spread{}
	fillArmFigures(&r)
	if r.OracleCost != (benchapi.Spread{}) || r.DriverCost != (benchapi.Spread{}) || r.OverheadRatio.Median != 6 {
		t.Errorf("without a checkers-off arm: oracle %+v, driver %+v, overhead %+v; want none, none, 6", r.OracleCost, r.DriverCost, r.OverheadRatio)
	}
}
