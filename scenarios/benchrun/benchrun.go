// Package benchrun is test machinery, not API: the benchmark runner behind
// `syncsim bench`, which measures the harness itself in interleaved rounds
// (scenarios per CPU second in the default shape and the memory-only one,
// the cost of the harness over the bare system under test, of the double
// run; of clock.Mock, growth with scenario length) and how fast each
// scheduling strategy finds each planted bug. It lives apart from package
// scenarios so that the API users build their suites on carries none of it.
package benchrun

import (
	"github.com/syncsim/syncsim/scenarios"
	"github.com/syncsim/syncsim/scenarios/internal/benchapi"
)

// The runner's inputs and results.
type (
	// Options size a benchmark run.
	Options = benchapi.Options
	// Report is what Bench measured; Targets lists its figures with goals.
	Report = benchapi.Report
	// Target is one goal a figure is held to.
	Target = benchapi.Target
	// Arm is one arm's measured rounds.
	Arm = benchapi.Arm
	// Round is what one round of one arm measured.
	Round = benchapi.Round
	// Spread is a figure over rounds: the median and the range.
	Spread = benchapi.Spread
	// StrategyOptions size a strategy benchmark.
	StrategyOptions = benchapi.StrategyOptions
	// StrategyFigure is one bug under one strategy mode.
	StrategyFigure = benchapi.StrategyFigure
)

// TraceKeep is the trace lines a benchmarked run holds, as a sweep does.
const TraceKeep = benchapi.TraceKeep

// MinRounds is the fewest rounds Options.Rounds may ask for.
const MinRounds = benchapi.MinRounds

// The arms, by name (see benchapi's rounds.go).
const (
	ArmDefault = benchapi.ArmDefault
	ArmMemory  = benchapi.ArmMemory
	ArmNone    = benchapi.ArmNone
	ArmDirect  = benchapi.ArmDirect
	ArmDouble  = benchapi.ArmDouble
)

// Bench measures the harness on this machine. It returns an error only
// when a run could not be set up.
func Bench(o Options) (Report, error) { return benchapi.Bench(o) }

// Strategies measures every planted bug (o.Bugs: those named) under each
// scheduling strategy on the same seeds, as bugs found per CPU minute.
func Strategies(o StrategyOptions) ([]StrategyFigure, error) { return benchapi.Strategies(o) }

// scenarios fills the hooks in its init; naming a package-level value of
// it keeps the import (and so the init) whatever the compiler prunes.
var _ = scenarios.DefaultConfig
