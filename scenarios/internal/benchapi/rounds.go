package benchapi

import (
	"slices"
	"time"
)

// The rounds of `syncsim bench`: every arm runs the same seeds once per
// round, the arms taking turns (arm A round 1, arm B round 1, ..., then
// round 2), so that a slow spell of the machine falls on all of them. A
// figure is the median of its rounds, shown with their range: the median
// because one disturbed round must not move it, the range because a wide
// one says the machine was noisy and the median is worth less.

// The arms, by name. Each is a sub-benchmark name in -benchfmt output
// (BenchmarkSweep/<name>), so a name is one word.
const (
	// ArmDefault is the default sweep as users run it: DefaultConfig,
	// SQLite share included, every checker on.
	ArmDefault = "default"
	// ArmMemory is the memory-only shape (MemoryConfig), every checker on.
	ArmMemory = "memory"
	// ArmNone is ArmMemory's scenarios with every checker off: the floor
	// that separates the oracle's cost (memory ÷ none) from the driver's
	// (none ÷ direct). Package scenarios' checkersOff says what "off" is.
	ArmNone = "none"
	// ArmDirect is ArmMemory's scenarios applied straight to the system
	// under test: no actors, no model, no trace, no checks.
	ArmDirect = "direct"
	// ArmDouble is ArmMemory's scenarios run twice and their trace hashes
	// compared, as -check-determinism does.
	ArmDouble = "double"
)

// Arm is one arm's measured rounds.
type Arm struct {
	Name  string // one of the Arm* names
	Shape string // what it runs, for a reader
	// Seeds is the scenarios one round runs (seeds FirstSeed.. of the
	// Report), the same every round.
	Seeds  int
	Rounds []Round
}

// Round is what one round of one arm measured.
type Round struct {
	CPU  time.Duration // process CPU time (user+sys, every thread, GC included)
	Wall time.Duration
	// Events and Sim are the trace events and virtual time of the round's
	// runs (0 for the direct runner, which has no trace).
	Events int64
	Sim    time.Duration
	// Violations counts runs that broke a property: they still count as
	// scenarios run (the bench measures; it does not judge the SUT).
	Violations int
	// AllocBytes and AllocObjects are the heap allocations of the whole
	// process during the round (runtime/metrics).
	AllocBytes, AllocObjects uint64
}

// Spread is a figure over rounds: the median and the range.
type Spread struct {
	Median, Min, Max float64
}

// SpreadOf returns the median, least and greatest of vs; the zero Spread
// for none. With an even count the median is the mean of the middle two.
func SpreadOf(vs []float64) Spread {
	if len(vs) == 0 {
		return Spread{}
	}
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return Spread{Median: med, Min: s[0], Max: s[n-1]}
}

// perRound maps every round of a through f and returns the spread.
func (a Arm) perRound(f func(Round) float64) Spread {
	vs := make([]float64, len(a.Rounds))
	for i, r := range a.Rounds {
		vs[i] = f(r)
	}
	return SpreadOf(vs)
}

// ScenariosPerSec is scenarios per CPU second (per core), round by round.
func (a Arm) ScenariosPerSec() Spread {
	return a.perRound(func(r Round) float64 { return perSecond(float64(a.Seeds), r.CPU) })
}

// ScenariosPerSecWall is scenarios per wall second, round by round.
func (a Arm) ScenariosPerSecWall() Spread {
	return a.perRound(func(r Round) float64 { return perSecond(float64(a.Seeds), r.Wall) })
}

// EventsPerSec is trace events per CPU second, round by round.
func (a Arm) EventsPerSec() Spread {
	return a.perRound(func(r Round) float64 { return perSecond(float64(r.Events), r.CPU) })
}

// TimeCompression is virtual seconds per CPU second, round by round.
func (a Arm) TimeCompression() Spread {
	return a.perRound(func(r Round) float64 { return perSecond(r.Sim.Seconds(), r.CPU) })
}

// MicrosPerScenario is CPU microseconds per scenario, round by round.
func (a Arm) MicrosPerScenario() Spread {
	return a.perRound(func(r Round) float64 { return float64(r.CPU.Nanoseconds()) / 1000 / float64(max(a.Seeds, 1)) })
}

// MaxViolations is the most runs that broke a property in any round (the
// rounds run the same seeds, so every round should count the same).
func (a Arm) MaxViolations() int {
	n := 0
	for _, r := range a.Rounds {
		n = max(n, r.Violations)
	}
	return n
}

// PairedRatio is a's CPU per scenario over b's, taken round by round (the
// two ran next to each other in every round, so a slow spell falls on both
// sides of each ratio). The zero Spread when the arms' rounds do not pair.
func PairedRatio(a, b Arm) Spread {
	if len(a.Rounds) == 0 || len(a.Rounds) != len(b.Rounds) || a.Seeds <= 0 || b.Seeds <= 0 {
		return Spread{}
	}
	vs := make([]float64, len(a.Rounds))
	for i := range a.Rounds {
		per := func(x Arm) float64 { return float64(x.Rounds[i].CPU) / float64(x.Seeds) }
		if per(b) <= 0 {
			return Spread{}
		}
		vs[i] = per(a) / per(b)
	}
	return SpreadOf(vs)
}

func perSecond(n float64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return n / d.Seconds()
}
