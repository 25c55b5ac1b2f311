package benchapi

import (
	"testing"
	"time"
)

func TestSpreadOf(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []float64
		want Spread
	}{
		{"none", nil, Spread{}},
		{"one", []float64{4}, Spread{4, 4, 4}},
		{"odd, unsorted", []float64{9, 1, 5, 7, 3}, Spread{5, 1, 9}},
		{"even: mean of the middle two", []float64{10, 2, 4, 8}, Spread{6, 2, 10}},
	} {
		if got := SpreadOf(c.in); got != c.want {
			t.Errorf("%s: SpreadOf(%v) = %+v, want %+v", c.name, c.in, got, c.want)
		}
	}
	in := []float64{3, 1, 2}
	SpreadOf(in)
	if in[0] != 3 || in[1] != 1 || in[2] != 2 {
		t.Errorf("SpreadOf sorted its argument in place: %v", in)
	}
}

// arm builds an arm of seeds scenarios per round from each round's CPU
// milliseconds.
func arm(name string, seeds int, cpuMillis ...int) Arm {
	a := Arm{Name: name, Seeds: seeds}
	for _, ms := range cpuMillis {
		a.Rounds = append(a.Rounds, Round{CPU: time.Duration(ms) * time.Millisecond, Wall: time.Duration(ms) * time.Millisecond / 2, Events: 1000})
	}
	return a
}

func TestArmRates(t *testing.T) {
	a := arm(ArmMemory, 100, 100, 50, 200) // 1000, 2000, 500 scenarios per CPU second
	if got, want := a.ScenariosPerSec(), (Spread{1000, 500, 2000}); got != want {
		t.Errorf("ScenariosPerSec = %+v, want %+v", got, want)
	}
	if got, want := a.MicrosPerScenario(), (Spread{1000, 500, 2000}); got != want {
		t.Errorf("MicrosPerScenario = %+v, want %+v", got, want)
	}
	if got, want := a.ScenariosPerSecWall(), (Spread{2000, 1000, 4000}); got != want {
		t.Errorf("ScenariosPerSecWall = %+v, want %+v", got, want)
	}
	if got, want := a.EventsPerSec(), (Spread{10000, 5000, 20000}); got != want {
		t.Errorf("EventsPerSec = %+v, want %+v", got, want)
	}
}

// TestPairedRatio: the ratio is taken round by round, so a round that was
// slow for both arms gives the same ratio as a quiet one; the ratio of the
// medians would not pair them.
func TestPairedRatio(t *testing.T) {
	harness := arm(ArmMemory, 10, 30, 60, 33) // the second round was slow for both
	direct := arm(ArmDirect, 10, 10, 20, 11)
	if got, want := PairedRatio(harness, direct), (Spread{3, 3, 3}); got != want {
		t.Errorf("PairedRatio = %+v, want %+v", got, want)
	}
	// Per scenario, not per round: an arm of half the seeds costs half.
	if got, want := PairedRatio(arm(ArmMemory, 10, 30, 60), arm(ArmDirect, 5, 5, 10)), (Spread{3, 3, 3}); got != want {
		t.Errorf("PairedRatio over arms of 10 and 5 seeds = %+v, want %+v", got, want)
	}
	for _, c := range []struct {
		name string
		b    Arm
	}{
		{"fewer rounds", arm(ArmDirect, 10, 10, 20)},
		{"no rounds", arm(ArmDirect, 10)},
		{"a round of no CPU", arm(ArmDirect, 10, 10, 0, 11)},
	} {
		if got := PairedRatio(harness, c.b); got != (Spread{}) {
			t.Errorf("%s: PairedRatio = %+v, want the zero Spread", c.name, got)
		}
	}
}

func TestMaxViolations(t *testing.T) {
	a := Arm{Rounds: []Round{{Violations: 2}, {Violations: 3}, {Violations: 2}}}
	if got := a.MaxViolations(); got != 3 {
		t.Errorf("MaxViolations = %d, want 3", got)
	}
}

// TestTargetsUseMedians: a target is held to the median of its rounds and
// carries their range.
func TestTargetsUseMedians(t *testing.T) {
	r := Report{
		ScenariosPerSec:        Spread{Median: 1600, Min: 900, Max: 1700},
		ScenariosPerSecDefault: Spread{Median: 600, Min: 500, Max: 700},
		OverheadRatio:          Spread{Median: 2.5, Min: 2, Max: 3.5},
	}
	got := map[string]Target{}
	for _, tg := range r.Targets() {
		got[tg.Name] = tg
	}
	if tg := got["scenarios_per_sec"]; !tg.Pass() || tg.Range != r.ScenariosPerSec {
		t.Errorf("scenarios_per_sec: %+v, want a pass on the median 1600 with its range", tg)
	}
	if tg := got["scenarios_per_sec_default"]; tg.Pass() || tg.Value != 600 {
		t.Errorf("scenarios_per_sec_default: %+v, want a miss on the median 600 (bound %d)", tg, targetScenariosPerSecDefault)
	}
	if tg := got["overhead_ratio"]; !tg.Pass() || !tg.AtMost {
		t.Errorf("overhead_ratio: %+v, want an at-most pass on the median 2.5", tg)
	}
}
