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

// maxBenchSeeds bounds -seeds of bench.
const maxBenchSeeds = 10_000_000

// cmdBench measures the harness on this machine (benchrun.Bench) and
// prints a table of figures against their targets, or one JSON object.
// It exits 0 whether or not the targets are met: a benchmark measures.
func cmdBench(e env, args []string) int {
	fs := newFlagSet("bench")
	jsonOut := fs.Bool("json", false, "write one JSON object on stdout")
	seeds := fs.Int("seeds", 0, "seeds of the large memory sweep; the small one runs a tenth (0: 100000, 20000 with -quick)")
	quick := fs.Bool("quick", false, "smaller samples everywhere: a first look in a few seconds")
	strategies := fs.Bool("strategies", false, "instead: bugs found per CPU minute for every planted bug under uniform, pct and mix (-seeds per bug and strategy, default 2000; -bug one bug)")
	first := fs.Uint64("seed", 1, "with -strategies: first seed of the range")
	bug := fs.String("bug", "", "with -strategies: only this planted bug")
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
	if *strategies {
		return benchStrategies(e, *seeds, *first, *bug, *jsonOut)
	}
	r, err := benchrun.Bench(benchrun.Options{
		Seeds: *seeds, Quick: *quick,
		Progress: func(phase string) { fmt.Fprintf(e.stderr, "syncsim bench: %s\n", phase) },
	})
	if err != nil {
		return inputError(e, "bench", err)
	}
	m := thisMachine()
	if *jsonOut {
		if err := writeJSON(e.stdout, benchSummaryJSON(r, m)); err != nil {
			return inputError(e, "bench", err)
		}
		return exitOK
	}
	writeBenchTable(e, r, m)
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
// of the process (every thread, GC included).
type benchJSON struct {
	Shape                string                     `json:"shape"`
	ScenariosPerSec      float64                    `json:"scenarios_per_sec"`
	EventsPerSec         float64                    `json:"events_per_sec"`
	TimeCompression      float64                    `json:"time_compression"`
	ScenariosPerSecWall  float64                    `json:"scenarios_per_sec_wall"`
	OverheadRatio        float64                    `json:"overhead_ratio"`
	VsClockMock          float64                    `json:"vs_clock_mock"`
	DeterminismCostRatio float64                    `json:"determinism_cost_ratio"`
	Growth               float64                    `json:"growth"`
	PeakHeapBytesSmall   uint64                     `json:"peak_heap_bytes_small"`
	PeakHeapBytesLarge   uint64                     `json:"peak_heap_bytes_large"`
	SeedsSmall           int                        `json:"seeds_small"`
	SeedsLarge           int                        `json:"seeds_large"`
	HarnessMicrosPerRun  float64                    `json:"harness_cpu_us_per_scenario"`
	DirectMicrosPerRun   float64                    `json:"direct_cpu_us_per_scenario"`
	MockMillisPerRun     float64                    `json:"clock_mock_wall_ms_per_scenario"`
	MockMovesPerRun      float64                    `json:"clock_mock_moves_per_scenario"`
	StepMicros50         float64                    `json:"cpu_us_per_step_50"`
	StepMicros5000       float64                    `json:"cpu_us_per_step_5000"`
	PairedSeeds          int                        `json:"paired_seeds"`
	MockSeeds            int                        `json:"mock_seeds"`
	Workers              int                        `json:"workers"`
	SweepViolations      int                        `json:"sweep_violations"`
	Machine              machineJSON                `json:"machine"`
	Targets              map[string]benchTargetJSON `json:"targets"`
	AllTargetsMet        bool                       `json:"all_targets_met"`
}

type benchTargetJSON struct {
	Value   float64 `json:"value"`
	Bound   float64 `json:"bound"`
	Compare string  `json:"compare"` // "at_most" or "at_least": how value must stand to bound
	Pass    bool    `json:"pass"`
}

func benchSummaryJSON(r benchrun.Report, m machineJSON) benchJSON {
	out := benchJSON{
		Shape: r.Shape, ScenariosPerSec: r.ScenariosPerSec, EventsPerSec: r.EventsPerSec,
		TimeCompression: r.TimeCompression, ScenariosPerSecWall: r.ScenariosPerSecWall,
		OverheadRatio: r.OverheadRatio, VsClockMock: r.VsClockMock,
		DeterminismCostRatio: r.DeterminismCostRatio, Growth: r.Growth,
		PeakHeapBytesSmall: r.PeakHeapBytesSmall, PeakHeapBytesLarge: r.PeakHeapBytesLarge,
		SeedsSmall: r.SeedsSmall, SeedsLarge: r.SeedsLarge,
		HarnessMicrosPerRun: r.HarnessMicros, DirectMicrosPerRun: r.DirectMicros,
		MockMillisPerRun: r.MockMillis, MockMovesPerRun: r.MockMoves,
		StepMicros50: r.StepMicros50, StepMicros5000: r.StepMicros5k,
		PairedSeeds: r.PairedSeeds, MockSeeds: r.MockSeeds, Workers: r.Workers,
		SweepViolations: r.Violations, Machine: m,
		Targets: map[string]benchTargetJSON{}, AllTargetsMet: true,
	}
	for _, t := range r.Targets() {
		cmp := "at_least"
		if t.AtMost {
			cmp = "at_most"
		}
		out.Targets[t.Name] = benchTargetJSON{Value: t.Value, Bound: t.Bound, Compare: cmp, Pass: t.Pass()}
		out.AllTargetsMet = out.AllTargetsMet && t.Pass()
	}
	return out
}

// writeBenchTable prints the figures as an aligned table: the targets
// first, then the figures they are derived from.
func writeBenchTable(e env, r benchrun.Report, m machineJSON) {
	fmt.Fprintf(e.stdout, "shape    %s\n", r.Shape)
	fmt.Fprintf(e.stdout, "machine  %s/%s, %s, %d CPUs, GOMAXPROCS %d, %s\n", m.GOOS, m.GOARCH, orUnknown(m.CPUModel), m.NumCPU, m.GOMAXPROCS, m.GoVersion)
	fmt.Fprintf(e.stdout, "rates are per core: per CPU second of the process (all threads, GC included)\n\n")
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tvalue\ttarget\tresult\t")
	for _, t := range r.Targets() {
		result := "pass"
		if !t.Pass() {
			result = "MISS"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", t.Name, formatFigure(t.Value), t.String(), result)
	}
	for _, row := range []struct {
		name, value string
	}{
		{"events_per_sec", formatFigure(r.EventsPerSec)},
		{"time_compression", formatFigure(r.TimeCompression)},
		{"scenarios_per_sec_wall", formatFigure(r.ScenariosPerSecWall)},
		{"harness_cpu_us_per_scenario", formatFigure(r.HarnessMicros)},
		{"direct_cpu_us_per_scenario", formatFigure(r.DirectMicros)},
		{"clock_mock_wall_ms_per_scenario", formatFigure(r.MockMillis)},
		{"clock_mock_moves_per_scenario", formatFigure(r.MockMoves)},
		{"cpu_us_per_step_50", formatFigure(r.StepMicros50)},
		{"cpu_us_per_step_5000", formatFigure(r.StepMicros5k)},
		{"peak_heap_bytes_small", fmt.Sprintf("%d (%d seeds)", r.PeakHeapBytesSmall, r.SeedsSmall)},
		{"peak_heap_bytes_large", fmt.Sprintf("%d (%d seeds)", r.PeakHeapBytesLarge, r.SeedsLarge)},
		{"sweep_violations", fmt.Sprintf("%d", r.Violations)},
	} {
		fmt.Fprintf(tw, "%s\t%s\t\t\t\n", row.name, row.value)
	}
	tw.Flush()
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
