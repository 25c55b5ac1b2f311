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

// Shape names the scenario shape every rate is measured on.
const Shape = "FromSeed(seed, DefaultConfig): backends drawn per seed (2 in most), 30 steps, memory store, swarm fault profile per seed"

// Options size a benchmark run.
type Options struct {
	// Seeds is the large sweep's seed count; the small sweep runs a tenth
	// of it. 0: 100,000 (20,000 with Quick).
	Seeds int
	// Quick shrinks every sample for a fast run (tests, a first look).
	Quick bool
	// Workers run the sweeps in parallel (0: GOMAXPROCS).
	Workers int
	// Progress, when set, is told each phase as it starts.
	Progress func(phase string)
}

// Report is what Bench measured. Rates are per core (per CPU second).
type Report struct {
	Shape   string
	Workers int

	ScenariosPerSec     float64 // default scenarios per CPU second, large sweep
	EventsPerSec        float64 // trace events per CPU second, large sweep
	TimeCompression     float64 // simulated seconds per CPU second, large sweep
	ScenariosPerSecWall float64 // large sweep seeds / wall second / workers

	OverheadRatio        float64 // harness CPU / direct-runner CPU, same seeds
	VsClockMock          float64 // clock.Mock wall / simulator wall, same seeds
	DeterminismCostRatio float64 // double run + hash compare CPU / single run CPU
	Growth               float64 // per-step CPU at 5,000 steps / at 50

	HarnessMicros float64 // CPU µs per default scenario (paired sample)
	DirectMicros  float64 // CPU µs per default scenario, direct runner
	MockMillis    float64 // wall ms per scenario with clock.Mock
	MockMoves     float64 // clock.Mock moves per scenario
	StepMicros50  float64 // CPU µs per step at 50 steps
	StepMicros5k  float64 // CPU µs per step at 5,000 steps

	PeakHeapBytesSmall, PeakHeapBytesLarge uint64
	SeedsSmall, SeedsLarge                 int
	PairedSeeds, MockSeeds                 int
	// Violations counts sweep seeds that broke a property (they still
	// count as scenarios run; the bench does not judge the SUT).
	Violations int
}

// Target is one goal a figure is held to.
type Target struct {
	Name   string
	Value  float64
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

// Targets returns the figures with their goals, in report order.
func (r Report) Targets() []Target {
	heap := 0.0
	if r.PeakHeapBytesSmall > 0 {
		heap = float64(r.PeakHeapBytesLarge) / float64(r.PeakHeapBytesSmall)
	}
	return []Target{
		{Name: "scenarios_per_sec", Value: r.ScenariosPerSec, Bound: 1000},
		{Name: "overhead_ratio", Value: r.OverheadRatio, Bound: 3, AtMost: true},
		{Name: "vs_clock_mock", Value: r.VsClockMock, Bound: 300},
		{Name: "determinism_cost_ratio", Value: r.DeterminismCostRatio, Bound: 2.2, AtMost: true},
		{Name: "growth", Value: r.Growth, Bound: 1.5, AtMost: true},
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
