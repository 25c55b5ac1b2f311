// Package benchapi holds the types of syncsim's benchmark runner (syncsim
// bench) and the hooks package scenarios fills with its implementation. It
// is internal: the runner is reached through scenarios/benchrun, so that
// the scenarios API carries none of it.
package benchapi

import (
	"fmt"
	"time"
)

// TraceKeep is the trace lines a benchmarked run holds, as a sweep
// does (cmd/syncsim keeps 64): the hash still covers every line.
const TraceKeep = 64

// Options size a benchmark run.
type Options struct {
	// Rounds is how many interleaved rounds every arm runs (0: 7, 5 with
	// Quick); fewer than MinRounds is an error.
	Rounds int
	// RoundSeeds is the scenarios one round of an arm runs, seeds
	// FirstSeed.. (0: 1000, 100 with Quick).
	RoundSeeds int
	// FirstSeed is the first seed of every round (0: 1).
	FirstSeed uint64
	// Seeds is the large heap sweep's seed count; the small sweep runs a
	// tenth of it. 0: 100,000 (20,000 with Quick).
	Seeds int
	// Quick shrinks every sample for a fast run (tests, a first look).
	Quick bool
	// RoundsOnly runs the arms' rounds and nothing else (no clock.Mock,
	// growth or heap figures): what a comparison of two builds reads.
	RoundsOnly bool
	// Workers run every round and sweep in parallel (0: GOMAXPROCS).
	Workers int
	// Progress, when set, is told each phase as it starts.
	Progress func(phase string)
}

// MinRounds is the fewest rounds a median with a range is worth taking of.
const MinRounds = 5

// Report is what Bench measured. Rates are per core (per CPU second).
type Report struct {
	Workers    int
	Rounds     int
	RoundSeeds int
	FirstSeed  uint64
	// CPUTimeSource says where the CPU times come from on this platform.
	CPUTimeSource string
	// Arms are every arm's rounds, in the order they ran in each round.
	Arms []Arm

	ScenariosPerSec        Spread // ArmMemory
	ScenariosPerSecDefault Spread // ArmDefault: the sweep users run
	EventsPerSec           Spread // ArmMemory
	TimeCompression        Spread // ArmMemory: simulated seconds per CPU second
	ScenariosPerSecWall    Spread // ArmMemory: seeds / wall second / workers

	// OverheadRatio is the harness's CPU over the direct runner's, per
	// round on the same seeds (ArmMemory ÷ ArmDirect): driver and oracle
	// together.
	OverheadRatio Spread
	// OracleCost (ArmMemory ÷ ArmNone) and DriverCost (ArmNone ÷
	// ArmDirect) split OverheadRatio (their product, round by round); zero
	// when ArmNone did not run.
	OracleCost, DriverCost Spread
	// DeterminismCostRatio is ArmDouble ÷ ArmMemory.
	DeterminismCostRatio Spread
	VsClockMock          float64 // clock.Mock wall / simulator wall, same seeds
	// Growth is the per-step CPU at 5,000 steps over that at 50, per round.
	Growth Spread

	HarnessMicros Spread  // CPU µs per scenario, ArmMemory
	DirectMicros  Spread  // CPU µs per scenario, ArmDirect
	MockMillis    float64 // wall ms per scenario with clock.Mock
	MockMoves     float64 // clock.Mock moves per scenario
	StepMicros50  Spread  // CPU µs per step at 50 steps
	StepMicros5k  Spread  // CPU µs per step at 5,000 steps

	PeakHeapBytesSmall, PeakHeapBytesLarge uint64
	SeedsSmall, SeedsLarge                 int
	MockSeeds                              int
	// Violations counts heap-sweep seeds that broke a property (they still
	// count as scenarios run; the bench does not judge the SUT).
	Violations int
}

// Arm returns the arm called name, if it ran.
func (r Report) Arm(name string) (Arm, bool) {
	for _, a := range r.Arms {
		if a.Name == name {
			return a, true
		}
	}
	return Arm{}, false
}

// Target is one goal a figure is held to: its median against the bound,
// its range shown beside it.
type Target struct {
	Name   string
	Value  float64 // the median (or the one measurement)
	Range  Spread  // zero for a figure measured once
	Bound  float64
	AtMost bool // the value must be <= Bound (else >= Bound)
}

// Pass reports whether the value meets the bound.
func (t Target) Pass() bool {
	if t.AtMost {
		return t.Value <= t.Bound
	}
	return t.Value >= t.Bound
}

// String renders the bound as "<= 3" or ">= 1000".
func (t Target) String() string {
	op := ">="
	if t.AtMost {
		op = "<="
	}
	return fmt.Sprintf("%s %g", op, t.Bound)
}

// maxHeapGrowth is how much larger the large sweep's heap peak may be than
// the small sweep's for memory to count as flat in the number of seeds.
const maxHeapGrowth = 1.5

// The speed goals, per core, as medians of the rounds with every checker
// on: the memory-only shape, and the default sweep users run (SQLite share
// included).
const (
	targetScenariosPerSec        = 1500
	targetScenariosPerSecDefault = 650
)

// Targets returns the figures with their goals, in report order.
func (r Report) Targets() []Target {
	heap := 0.0
	if r.PeakHeapBytesSmall > 0 {
		heap = float64(r.PeakHeapBytesLarge) / float64(r.PeakHeapBytesSmall)
	}
	spread := func(name string, s Spread, bound float64, atMost bool) Target {
		return Target{Name: name, Value: s.Median, Range: s, Bound: bound, AtMost: atMost}
	}
	return []Target{
		spread("scenarios_per_sec", r.ScenariosPerSec, targetScenariosPerSec, false),
		spread("scenarios_per_sec_default", r.ScenariosPerSecDefault, targetScenariosPerSecDefault, false),
		spread("overhead_ratio", r.OverheadRatio, 3, true),
		{Name: "vs_clock_mock", Value: r.VsClockMock, Bound: 300},
		spread("determinism_cost_ratio", r.DeterminismCostRatio, 2.2, true),
		spread("growth", r.Growth, 1.5, true),
		{Name: "peak_heap_large_over_small", Value: heap, Bound: maxHeapGrowth, AtMost: true},
	}
}

// StrategyOptions size a strategy benchmark.
type StrategyOptions struct {
	// Seeds per bug and strategy, from FirstSeed (0: 2000 and 1).
	Seeds     int
	FirstSeed uint64
	// Workers run seeds in parallel (0: GOMAXPROCS).
	Workers int
	// Bugs limits the bugs, by name (nil: all of scenarios.Bugs).
	Bugs []string
	// Progress, when set, is told each bug as it starts.
	Progress func(bug string)
}

// StrategyFigure is one bug under one strategy mode.
type StrategyFigure struct {
	Bug, Strategy string
	Seeds         int
	Found         int           // seeds whose run violated a property
	FirstFound    int           // seeds run up to the first find (0: none)
	CPU           time.Duration // process CPU for the whole range
	// FoundPerCPUMinute is Found per minute of process CPU.
	FoundPerCPUMinute float64
}

// Bench and Strategies are set by package scenarios when it is initialised.
var (
	Bench      func(Options) (Report, error)
	Strategies func(StrategyOptions) ([]StrategyFigure, error)
)
