package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/syncsim/syncsim/scenarios"
	"github.com/syncsim/syncsim/scenarios/benchrun"
)

// Bounds of bench's flags (STYLE 13).
const (
	maxBenchSeeds      = 10_000_000 // -seeds
	maxBenchRounds     = 100        // -rounds
	maxBenchRoundSeeds = 1_000_000  // -round-seeds
)

// cmdBench measures the harness on this machine (benchrun.Bench) and
// prints a table of figures against their targets, one JSON object, or Go
// benchmark lines. It exits 0 whether or not the targets are met: a
// benchmark measures.
func cmdBench(e env, args []string) int {
	fs := newFlagSet("bench")
	jsonOut := fs.Bool("json", false, "write one JSON object on stdout")
	benchfmt := fs.Bool("benchfmt", false, "instead of the table, run only the rounds and print one Go benchmark line per arm and round (benchstat reads them)")
	rounds := fs.Int("rounds", 0, fmt.Sprintf("interleaved rounds of every arm, at least %d (0: 7, %d with -quick)", benchrun.MinRounds, benchrun.MinRounds))
	roundSeeds := fs.Int("round-seeds", 0, "seeds one round of an arm runs, the same every round (0: 1000, 100 with -quick)")
	seeds := fs.Int("seeds", 0, "seeds of the large heap sweep; the small one runs a tenth (0: 100000, 20000 with -quick)")
	quick := fs.Bool("quick", false, "smaller samples everywhere: a first look in a few seconds")
	strategies := fs.Bool("strategies", false, "instead: bugs found per CPU minute for every planted bug under uniform, pct and mix (-seeds per bug and strategy, default 2000; -bug one bug)")
	first := fs.Uint64("seed", 1, "first seed of every round (with -strategies: of the range)")
	bug := fs.String("bug", "", "with -strategies: only this planted bug")
	byProperty := fs.Bool("by-property", false, "instead: CPU per scenario of every checker, over -seeds default scenarios (0: 2000) from -seed, one at a time")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagFailure(e, "bench", fs, err)
	}
	if len(pos) > 0 {
		return usageError(e, "bench", fmt.Sprintf("unexpected argument %q", pos[0]))
	}
	if *seeds < 0 || *seeds > maxBenchSeeds {
		return usageError(e, "bench", fmt.Sprintf("invalid value %d for flag -seeds: want 0..%d", *seeds, maxBenchSeeds))
	}
	if *rounds != 0 && (*rounds < benchrun.MinRounds || *rounds > maxBenchRounds) {
		return usageError(e, "bench", fmt.Sprintf("invalid value %d for flag -rounds: want 0 or %d..%d", *rounds, benchrun.MinRounds, maxBenchRounds))
	}
	if *roundSeeds < 0 || *roundSeeds > maxBenchRoundSeeds {
		return usageError(e, "bench", fmt.Sprintf("invalid value %d for flag -round-seeds: want 0..%d", *roundSeeds, maxBenchRoundSeeds))
	}
	if *strategies && *byProperty {
		return usageError(e, "bench", "flag -by-property cannot be combined with -strategies")
	}
	if *benchfmt && (*jsonOut || *strategies || *byProperty) {
		other := "-json"
		switch {
		case *strategies:
			other = "-strategies"
		case *byProperty:
			other = "-by-property"
		}
		return usageError(e, "bench", fmt.Sprintf("flag -benchfmt cannot be combined with %s", other))
	}
	if *byProperty {
		return benchByProperty(e, *seeds, *first, *jsonOut)
	}
	if *strategies {
		return benchStrategies(e, *seeds, *first, *bug, *jsonOut)
	}
	r, err := benchrun.Bench(benchrun.Options{
		Rounds: *rounds, RoundSeeds: *roundSeeds, FirstSeed: *first, Seeds: *seeds,
		Quick: *quick, RoundsOnly: *benchfmt,
		Progress: func(phase string) { fmt.Fprintf(e.stderr, "syncsim bench: %s\n", phase) },
	})
	if err != nil {
		return inputError(e, "bench", err)
	}
	m := thisMachine()
	switch {
	case *benchfmt:
		writeBenchfmt(e.stdout, r, m)
	case *jsonOut:
		if err := writeJSON(e.stdout, benchSummaryJSON(r, m)); err != nil {
			return inputError(e, "bench", err)
		}
	default:
		writeBenchTable(e, r, m)
	}
	return exitOK
}

// machineJSON says where the figures were measured.
type machineJSON struct {
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	NumCPU     int    `json:"num_cpu"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	CPUModel   string `json:"cpu_model"` // "" when /proc/cpuinfo is unreadable
	GoVersion  string `json:"go_version"`
}

func thisMachine() machineJSON {
	return machineJSON{
		GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, NumCPU: runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0), CPUModel: cpuModel(), GoVersion: runtime.Version(),
	}
}

// cpuModel reads the first "model name" of /proc/cpuinfo.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// benchJSON is `syncsim bench -json`. Rates are per core: per CPU second
// of the process (cpu_time_source says how it is read). A figure measured
// in rounds is the median of its rounds; its range is in targets (for the
// targeted ones) and in arms.
type benchJSON struct {
	CPUTimeSource          string                     `json:"cpu_time_source"`
	Rounds                 int                        `json:"rounds"`
	RoundSeeds             int                        `json:"round_seeds"`
	FirstSeed              uint64                     `json:"first_seed"`
	Workers                int                        `json:"workers"`
	Arms                   []armJSON                  `json:"arms"`
	ScenariosPerSec        float64                    `json:"scenarios_per_sec"`
	ScenariosPerSecDefault float64                    `json:"scenarios_per_sec_default"`
	EventsPerSec           float64                    `json:"events_per_sec"`
	TimeCompression        float64                    `json:"time_compression"`
	ScenariosPerSecWall    float64                    `json:"scenarios_per_sec_wall"`
	OverheadRatio          float64                    `json:"overhead_ratio"`
	OracleCostRatio        float64                    `json:"oracle_cost_ratio,omitempty"`
	DriverCostRatio        float64                    `json:"driver_cost_ratio,omitempty"`
	VsClockMock            float64                    `json:"vs_clock_mock"`
	DeterminismCostRatio   float64                    `json:"determinism_cost_ratio"`
	Growth                 float64                    `json:"growth"`
	PeakHeapBytesSmall     uint64                     `json:"peak_heap_bytes_small"`
	PeakHeapBytesLarge     uint64                     `json:"peak_heap_bytes_large"`
	SeedsSmall             int                        `json:"seeds_small"`
	SeedsLarge             int                        `json:"seeds_large"`
	HarnessMicrosPerRun    float64                    `json:"harness_cpu_us_per_scenario"`
	DirectMicrosPerRun     float64                    `json:"direct_cpu_us_per_scenario"`
	MockMillisPerRun       float64                    `json:"clock_mock_wall_ms_per_scenario"`
	MockMovesPerRun        float64                    `json:"clock_mock_moves_per_scenario"`
	StepMicros50           float64                    `json:"cpu_us_per_step_50"`
	StepMicros5000         float64                    `json:"cpu_us_per_step_5000"`
	MockSeeds              int                        `json:"mock_seeds"`
	SweepViolations        int                        `json:"sweep_violations"`
	Machine                machineJSON                `json:"machine"`
	Targets                map[string]benchTargetJSON `json:"targets"`
	AllTargetsMet          bool                       `json:"all_targets_met"`
}

// spreadJSON is a figure over rounds.
type spreadJSON struct {
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

func spreadOf(s benchrun.Spread) spreadJSON { return spreadJSON{s.Median, s.Min, s.Max} }

// armJSON is one arm with every round, in the order the rounds ran.
type armJSON struct {
	Name                 string      `json:"name"`
	Shape                string      `json:"shape"`
	SeedsPerRound        int         `json:"seeds_per_round"`
	ScenariosPerSec      spreadJSON  `json:"scenarios_per_sec"`
	CPUMicrosPerScenario spreadJSON  `json:"cpu_us_per_scenario"`
	Violations           int         `json:"violations"` // most in any round
	Rounds               []roundJSON `json:"rounds"`
}

type roundJSON struct {
	CPUSeconds      float64 `json:"cpu_seconds"`
	WallSeconds     float64 `json:"wall_seconds"`
	ScenariosPerSec float64 `json:"scenarios_per_sec"`
	Events          int64   `json:"events"`
	AllocBytes      uint64  `json:"alloc_bytes"`
	AllocObjects    uint64  `json:"alloc_objects"`
	Violations      int     `json:"violations"`
}

type benchTargetJSON struct {
	Value   float64 `json:"value"`
	Min     float64 `json:"min"` // the range of the rounds; value itself for a figure measured once
	Max     float64 `json:"max"`
	Bound   float64 `json:"bound"`
	Compare string  `json:"compare"` // "at_most" or "at_least": how value must stand to bound
	Pass    bool    `json:"pass"`
}

func benchSummaryJSON(r benchrun.Report, m machineJSON) benchJSON {
	out := benchJSON{
		CPUTimeSource: r.CPUTimeSource, Rounds: r.Rounds, RoundSeeds: r.RoundSeeds, FirstSeed: r.FirstSeed,
		Workers: r.Workers, Arms: []armJSON{},
		ScenariosPerSec: r.ScenariosPerSec.Median, ScenariosPerSecDefault: r.ScenariosPerSecDefault.Median,
		EventsPerSec: r.EventsPerSec.Median, TimeCompression: r.TimeCompression.Median,
		ScenariosPerSecWall: r.ScenariosPerSecWall.Median,
		OverheadRatio:       r.OverheadRatio.Median, OracleCostRatio: r.OracleCost.Median, DriverCostRatio: r.DriverCost.Median,
		VsClockMock: r.VsClockMock, DeterminismCostRatio: r.DeterminismCostRatio.Median, Growth: r.Growth.Median,
		PeakHeapBytesSmall: r.PeakHeapBytesSmall, PeakHeapBytesLarge: r.PeakHeapBytesLarge,
		SeedsSmall: r.SeedsSmall, SeedsLarge: r.SeedsLarge,
		HarnessMicrosPerRun: r.HarnessMicros.Median, DirectMicrosPerRun: r.DirectMicros.Median,
		MockMillisPerRun: r.MockMillis, MockMovesPerRun: r.MockMoves,
		StepMicros50: r.StepMicros50.Median, StepMicros5000: r.StepMicros5k.Median,
		MockSeeds: r.MockSeeds, SweepViolations: r.Violations, Machine: m,
		Targets: map[string]benchTargetJSON{}, AllTargetsMet: true,
	}
	for _, a := range r.Arms {
		aj := armJSON{Name: a.Name, Shape: a.Shape, SeedsPerRound: a.Seeds,
			ScenariosPerSec: spreadOf(a.ScenariosPerSec()), CPUMicrosPerScenario: spreadOf(a.MicrosPerScenario()),
			Violations: a.MaxViolations(), Rounds: []roundJSON{}}
		for _, rd := range a.Rounds {
			aj.Rounds = append(aj.Rounds, roundJSON{
				CPUSeconds: rd.CPU.Seconds(), WallSeconds: rd.Wall.Seconds(),
				ScenariosPerSec: float64(a.Seeds) / max(rd.CPU.Seconds(), 1e-9),
				Events:          rd.Events, AllocBytes: rd.AllocBytes, AllocObjects: rd.AllocObjects, Violations: rd.Violations,
			})
		}
		out.Arms = append(out.Arms, aj)
	}
	for _, t := range r.Targets() {
		cmp := "at_least"
		if t.AtMost {
			cmp = "at_most"
		}
		lo, hi := t.Range.Min, t.Range.Max
		if t.Range == (benchrun.Spread{}) {
			lo, hi = t.Value, t.Value
		}
		out.Targets[t.Name] = benchTargetJSON{Value: t.Value, Min: lo, Max: hi, Bound: t.Bound, Compare: cmp, Pass: t.Pass()}
		out.AllTargetsMet = out.AllTargetsMet && t.Pass()
	}
	return out
}

// writeBenchTable prints the arms (median and range of their rounds),
// then the figures with targets, then the figures they are derived from.
func writeBenchTable(e env, r benchrun.Report, m machineJSON) {
	fmt.Fprintf(e.stdout, "machine  %s/%s, %s, %d CPUs, GOMAXPROCS %d, %s\n", m.GOOS, m.GOARCH, orUnknown(m.CPUModel), m.NumCPU, m.GOMAXPROCS, m.GoVersion)
	fmt.Fprintf(e.stdout, "cpu      %s\n", r.CPUTimeSource)
	fmt.Fprintf(e.stdout, "rounds   %d, interleaved (every arm once per round), seeds %d..%d in each, %d workers\n", r.Rounds, r.FirstSeed, r.FirstSeed+uint64(r.RoundSeeds)-1, r.Workers)
	fmt.Fprintf(e.stdout, "figures are the median of the rounds, their range (min..max) in parentheses; rates are per core (per CPU second)\n\n")
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "arm\tscenarios/s per core\tcpu us/scenario\tviolations\t")
	for _, a := range r.Arms {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t\n", a.Name, formatSpread(a.ScenariosPerSec()), formatSpread(a.MicrosPerScenario()), a.MaxViolations())
	}
	tw.Flush()
	for _, a := range r.Arms {
		fmt.Fprintf(e.stdout, "  %s: %s\n", a.Name, a.Shape)
	}
	fmt.Fprintln(e.stdout)
	tw = tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tvalue\ttarget\tresult\t")
	for _, t := range r.Targets() {
		result := "pass"
		if !t.Pass() {
			result = "MISS"
		}
		value := formatFigure(t.Value)
		if t.Range != (benchrun.Spread{}) {
			value = formatSpread(t.Range)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", t.Name, value, t.String(), result)
	}
	rows := []benchRow{
		{"events_per_sec", formatSpread(r.EventsPerSec)},
		{"time_compression", formatSpread(r.TimeCompression)},
		{"scenarios_per_sec_wall", formatSpread(r.ScenariosPerSecWall)},
	}
	if r.OracleCost != (benchrun.Spread{}) {
		rows = append(rows, benchRow{"oracle_cost_ratio", formatSpread(r.OracleCost)}, benchRow{"driver_cost_ratio", formatSpread(r.DriverCost)})
	}
	rows = append(rows,
		benchRow{"harness_cpu_us_per_scenario", formatSpread(r.HarnessMicros)},
		benchRow{"direct_cpu_us_per_scenario", formatSpread(r.DirectMicros)},
		benchRow{"clock_mock_wall_ms_per_scenario", formatFigure(r.MockMillis)},
		benchRow{"clock_mock_moves_per_scenario", formatFigure(r.MockMoves)},
		benchRow{"cpu_us_per_step_50", formatSpread(r.StepMicros50)},
		benchRow{"cpu_us_per_step_5000", formatSpread(r.StepMicros5k)},
		benchRow{"peak_heap_bytes_small", fmt.Sprintf("%d (%d seeds)", r.PeakHeapBytesSmall, r.SeedsSmall)},
		benchRow{"peak_heap_bytes_large", fmt.Sprintf("%d (%d seeds)", r.PeakHeapBytesLarge, r.SeedsLarge)},
		benchRow{"sweep_violations", fmt.Sprintf("%d", r.Violations)},
	)
	for _, row := range rows {
		fmt.Fprintf(tw, "%s\t%s\t\t\t\n", row.name, row.value)
	}
	tw.Flush()
}

// benchRow is one figure of the table without a target.
type benchRow struct{ name, value string }

// formatSpread prints a median and its range: "1012 (950..1040)".
func formatSpread(s benchrun.Spread) string {
	return fmt.Sprintf("%s (%s..%s)", formatFigure(s.Median), formatFigure(s.Min), formatFigure(s.Max))
}

// formatFigure prints three significant figures, without exponents.
func formatFigure(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

func orUnknown(s string) string {
	if s == "" {
		return "CPU model unknown"
	}
	return s
}

// benchStrategies is `syncsim bench -strategies`.
func benchStrategies(e env, seeds int, first uint64, bug string, jsonOut bool) int {
	var bugs []string
	if bug != "" {
		if _, ok := scenarios.BugByName(bug); !ok {
			return usageError(e, "bench", fmt.Sprintf("unknown bug %q for flag -bug (see syncsim bugs)", bug))
		}
		bugs = []string{bug}
	}
	figs, err := benchrun.Strategies(benchrun.StrategyOptions{
		Seeds: seeds, FirstSeed: first, Bugs: bugs,
		Progress: func(b string) { fmt.Fprintf(e.stderr, "syncsim bench: strategies for %s\n", b) },
	})
	if err != nil {
		return inputError(e, "bench", err)
	}
	if jsonOut {
		type fig struct {
			Bug               string  `json:"bug"`
			Strategy          string  `json:"strategy"`
			Seeds             int     `json:"seeds"`
			Found             int     `json:"found"`
			FirstFound        int     `json:"first_found"`
			CPUSeconds        float64 `json:"cpu_seconds"`
			FoundPerCPUMinute float64 `json:"found_per_cpu_minute"`
		}
		out := struct {
			Machine machineJSON `json:"machine"`
			Figures []fig       `json:"figures"`
		}{Machine: thisMachine(), Figures: []fig{}}
		for _, f := range figs {
			out.Figures = append(out.Figures, fig{f.Bug, f.Strategy, f.Seeds, f.Found, f.FirstFound, f.CPU.Seconds(), f.FoundPerCPUMinute})
		}
		if err := writeJSON(e.stdout, out); err != nil {
			return inputError(e, "bench", err)
		}
		return exitOK
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "BUG\tSTRATEGY\tFOUND\tSEEDS\tFIRST\tCPU\tFOUND/CPU-MIN")
	for _, f := range figs {
		firstCell := "-"
		if f.FirstFound > 0 {
			firstCell = fmt.Sprint(f.FirstFound)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%.1fs\t%.1f\n", f.Bug, f.Strategy, f.Found, f.Seeds, firstCell, f.CPU.Seconds(), f.FoundPerCPUMinute)
	}
	tw.Flush()
	return exitOK
}
