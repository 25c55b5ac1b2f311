package sim

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// runSteps runs n actors of k blocking points each under strategy s (and
// schedule, when non-nil) and returns which actor took each step, plus the
// recorded choices.
func runSteps(t *testing.T, s Strategy, seed uint64, n, k int, schedule []string) (steps, choices []string) {
	t.Helper()
	rt := NewRuntime(Stream(seed, LabelInterleave))
	rt.SetStrategy(s)
	rt.SetPrepare(func() (*rand.Rand, []string) { return Stream(seed, "run"), schedule })
	for i := range n {
		name := "#" + strconv.Itoa(i+1) + ".a" + strconv.Itoa(i)
		rt.Go(name, func() {
			for range k {
				steps = append(steps, rt.ActorLocal())
				rt.Block("p")
			}
		})
	}
	if parked, err := rt.Run(); err != nil || len(parked) > 0 {
		t.Fatalf("Run = %v, %v", parked, err)
	}
	return steps, rt.Choices()
}

// switchesOf counts how often consecutive steps belong to different actors.
func switchesOf(steps []string) int {
	n := 0
	for i := 1; i < len(steps); i++ {
		if steps[i] != steps[i-1] {
			n++
		}
	}
	return n
}

// TestPCTDepthBoundsPreemptions: under PCT of depth d an actor loses the
// processor only at one of the d-1 change points or when it ends, so a run
// of n actors switches at most n-1+d-1 times; uniform switches far more.
func TestPCTDepthBoundsPreemptions(t *testing.T) {
	const n, k = 3, 8
	for d := 1; d <= 3; d++ {
		for seed := range uint64(50) {
			steps, _ := runSteps(t, &PCT{Depth: d, Steps: n * k}, seed, n, k, nil)
			if len(steps) != n*k {
				t.Fatalf("d=%d seed %d: %d steps, want %d", d, seed, len(steps), n*k)
			}
			if sw := switchesOf(steps); sw > n-1+d-1 {
				t.Errorf("d=%d seed %d: %d switches, PCT allows at most %d: %v", d, seed, sw, n-1+d-1, steps)
			}
		}
	}
	most := 0
	for seed := range uint64(50) {
		steps, _ := runSteps(t, &Uniform{}, seed, n, k, nil)
		most = max(most, switchesOf(steps))
	}
	if most <= n+1 {
		t.Errorf("uniform walk never switched more than %d times in 50 seeds: the strategy is not being asked", most)
	}
}

// TestPCTFindsEveryOrderOfFirstSteps: random priorities put each actor first
// in some seed (the d=1 case of the PCT bound: 1/n per run).
func TestPCTFindsEveryOrderOfFirstSteps(t *testing.T) {
	first := map[string]int{}
	for seed := range uint64(60) {
		steps, _ := runSteps(t, &PCT{Depth: 1, Steps: 8}, seed, 3, 2, nil)
		first[steps[0]]++
	}
	for _, a := range []string{"a0", "a1", "a2"} {
		if first[a] < 5 {
			t.Errorf("actor %s ran first in %d of 60 seeds (%v), want about 20", a, first[a], first)
		}
	}
}

// TestScheduleReplaysExactly: the choices a run records, given back as its
// schedule, reproduce every step under any strategy and any seed.
func TestScheduleReplaysExactly(t *testing.T) {
	for seed := range uint64(20) {
		want, choices := runSteps(t, &Uniform{}, seed, 3, 5, nil)
		for _, s := range []Strategy{&Uniform{}, &PCT{Depth: 2, Steps: 12}} {
			got, again := runSteps(t, s, seed+1000, 3, 5, choices)
			if !slices.Equal(got, want) || !slices.Equal(again, choices) {
				t.Fatalf("seed %d under %s: replay ran %v, recorded %v", seed, s, got, want)
			}
		}
	}
}

// TestScheduleFallback: past its end (or at a name that is not runnable) a
// schedule lets the yielding actor go on, so an empty schedule runs every
// actor to completion in spawn order.
func TestScheduleFallback(t *testing.T) {
	got, _ := runSteps(t, &Uniform{}, 1, 3, 3, []string{"a1", "nobody"})
	want := []string{"a1", "a1", "a1", "a0", "a0", "a0", "a2", "a2", "a2"}
	if !slices.Equal(got, want) {
		t.Errorf("ran %v, want %v", got, want)
	}
}

func TestLocalNames(t *testing.T) {
	rt := NewRuntime(Stream(1, LabelInterleave))
	for _, n := range []string{"#1.exec.b0", "#2.exec.b0", "#3.tick", "plain"} {
		rt.Go(n, func() {})
	}
	var got []string
	for _, n := range []string{"#1.exec.b0", "#2.exec.b0", "#3.tick", "plain"} {
		got = append(got, rt.LocalName(n))
	}
	if want := []string{"exec.b0", "exec.b0/2", "tick", "plain"}; !slices.Equal(got, want) {
		t.Errorf("local names %v, want %v", got, want)
	}
	if _, err := rt.Run(); err != nil {
		t.Fatal(err)
	}
	rt.Go("#4.exec.b0", func() {})
	if got := rt.LocalName("#4.exec.b0"); got != "exec.b0" {
		t.Errorf("after a Run the count starts again: got %q", got)
	}
}

func TestDrawStrategy(t *testing.T) {
	kinds := map[string]int{}
	for seed := range uint64(200) {
		s, err := DrawStrategy(StrategyMix, seed)
		if err != nil {
			t.Fatal(err)
		}
		kinds[s.String()]++
		if u, _ := DrawStrategy(StrategyUniform, seed); u.String() != StrategyUniform {
			t.Fatalf("uniform mode drew %s", u)
		}
		if p, _ := DrawStrategy(StrategyPCT, seed); p.String()[:3] != StrategyPCT {
			t.Fatalf("pct mode drew %s", p)
		}
	}
	for _, k := range []string{"uniform", "pct d=1 k=12", "pct d=2 k=12", "pct d=3 k=12"} {
		if kinds[k] == 0 {
			t.Errorf("mix never drew %q in 200 seeds: %v", k, kinds)
		}
	}
	if _, err := DrawStrategy("dfs", 1); err == nil {
		t.Error("an unknown strategy was accepted")
	}
}

// runPCT runs the actors spawn starts under PCT of the given depth, with
// seed's streams, and returns what they appended to order.
func runPCT(t *testing.T, seed uint64, depth int, spawn func(rt *Runtime, order *[]string)) []string {
	t.Helper()
	rt := NewRuntime(Stream(seed, LabelInterleave))
	rt.SetStrategy(&PCT{Depth: depth, Steps: PCTSteps})
	rt.SetPrepare(func() (*rand.Rand, []string) { return Stream(seed, "run"), nil })
	var order []string
	spawn(rt, &order)
	if parked, err := rt.Run(); err != nil || len(parked) > 0 {
		t.Fatalf("Run = %v, %v", parked, err)
	}
	return order
}

// TestPCTPlacesTicksAfterClockReads: a thread that reads the clock once,
// past its PCTSteps-th blocking point (an intent built late in a long
// exec), and a tick. Placed at a choice point among the first PCTSteps,
// the tick never lands in the window between the read and the next
// blocking point; PCT places half its ticks after the j-th clock read, j
// in 1..1 for one thread, so about one run in two hits it — and not all
// (the other placements spread over the group).
func TestPCTPlacesTicksAfterClockReads(t *testing.T) {
	const points, readAt, runs = 20, 14, 400
	hit := 0
	for seed := range uint64(runs) {
		order := runPCT(t, seed, 1, func(rt *Runtime, order *[]string) {
			rt.Go("#1.exec.b0", func() {
				for i := range points {
					if i == readAt {
						rt.ClockRead()
						*order = append(*order, "read")
					}
					rt.Block("p")
					*order = append(*order, "after")
				}
			})
			rt.Go("#2.tick", func() { *order = append(*order, "tick") })
		})
		if i := slices.Index(order, "read"); i >= 0 && i+1 < len(order) && order[i+1] == "tick" {
			hit++
		}
	}
	if hit < 2*runs/5 || hit == runs {
		t.Errorf("tick right after the clock read in %d of %d runs, want about half and not all", hit, runs)
	}
}

// TestPCTChangePointsNeedTwoThreads: a thread runs alone for 20 blocking
// points beside a tick that is not yet due (ticks placed after clock reads
// that never come), then starts a second thread. The choice points it takes
// alone decide nothing: PCT spends its change points only where two
// threads compete, so at depth 2 the first thread is not always demoted
// before the second exists, and which of the two goes on first stays a
// coin flip of their priorities.
func TestPCTChangePointsNeedTwoThreads(t *testing.T) {
	const alone, runs = 20, 200
	firstGoesOn := 0
	for seed := range uint64(runs) {
		order := runPCT(t, seed, 2, func(rt *Runtime, order *[]string) {
			rt.Go("#1.exec.b0", func() {
				for range alone {
					rt.Block("p")
				}
				rt.Go("#2.exec.b1", func() { *order = append(*order, "b1") })
				rt.Block("p")
				*order = append(*order, "b0")
			})
			rt.Go("#3.tick", func() {})
		})
		if order[0] == "b0" {
			firstGoesOn++
		}
	}
	if firstGoesOn < runs/4 || firstGoesOn > 3*runs/4 {
		t.Errorf("the first thread went on before the second in %d of %d runs, want about half", firstGoesOn, runs)
	}
}

// TestPCTTimersFirePromptly: a timer of the system under test that fires
// while a thread runs (the host's alarm when a tick makes it due) runs at
// the next choice point in most runs (three in four promptly, and half of
// the rest by its random priority), and later in some.
func TestPCTTimersFirePromptly(t *testing.T) {
	const runs = 400
	prompt := 0
	for seed := range uint64(runs) {
		order := runPCT(t, seed, 1, func(rt *Runtime, order *[]string) {
			rt.Go("#1.exec.b0", func() {
				rt.Go("#2.timer", func() { *order = append(*order, "timer") })
				for range 3 {
					rt.Block("p")
					*order = append(*order, "exec")
				}
			})
		})
		if order[0] == "timer" {
			prompt++
		}
	}
	if prompt < 3*runs/4 || prompt == runs {
		t.Errorf("the timer ran at the next choice point in %d of %d runs, want about 7 in 8 and not all", prompt, runs)
	}
}
