package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/syncsim/syncsim/scenarios"
	"github.com/syncsim/syncsim/sim"
)

// defaultHuntSeeds is the per-bug seed budget; DESIGN promises every
// planted bug is found within it.
const defaultHuntSeeds = 2000

// huntFirstSeed is where a one-window hunt without -seed starts, so that
// seeds_to_first_failure is the failing seed itself and such hunts are
// comparable across machines.
const huntFirstSeed = 1

// maxHuntWindows bounds -windows.
const maxHuntWindows = 1000

// huntJSON is `syncsim hunt -json`.
type huntJSON struct {
	Seeds       uint64        `json:"seeds"` // the per-bug budget, per window
	Windows     int           `json:"windows"`
	FirstSeed   uint64        `json:"first_seed"` // window w runs FirstSeed + w*Seeds onwards
	Strategy    string        `json:"strategy"`
	Found       int           `json:"found"`
	Total       int           `json:"total"`
	WallSeconds float64       `json:"wall_seconds"`
	Bugs        []huntBugJSON `json:"bugs"`
}

// huntBugJSON is one bug's hunt.
type huntBugJSON struct {
	Bug                 string `json:"bug"`
	Class               string `json:"class"`
	Found               bool   `json:"found"`                  // in every window
	SeedsToFirstFailure uint64 `json:"seeds_to_first_failure"` // first window that found it; 0 when none did
	// Per window, seeds run up to and including the first failure (0: the
	// window missed); their median and worst over the windows, a missed
	// window counting as budget+1; and how many windows missed.
	WindowSeeds   []uint64 `json:"window_seeds"`
	MedianSeeds   uint64   `json:"median_seeds"`
	WorstSeeds    uint64   `json:"worst_seeds"`
	WindowsMissed int      `json:"windows_missed"`
	SeedsRun      int      `json:"seeds_run"`
	Property      string   `json:"property"`
	Detail        string   `json:"detail"`
	StepsBefore   int      `json:"steps_before"`
	StepsAfter    int      `json:"steps_after"`
	ShrinkSeconds float64  `json:"shrink_seconds"`
	ShrinkRuns    int      `json:"shrink_runs"`
	ShrinkError   string   `json:"shrink_error,omitempty"`
	File          string   `json:"file"`
	SaveError     string   `json:"save_error,omitempty"`
	Replay        string   `json:"replay"`
	WallSeconds   float64  `json:"wall_seconds"` // sweep and shrink
}

func cmdHunt(e env, args []string) int {
	fs := newFlagSet("hunt")
	var shape shapeFlags
	shape.register(fs)
	seeds := newCountFlag(fs, "seeds", defaultHuntSeeds, "`N` seeds per bug and window")
	windows := fs.Int("windows", 1, "disjoint seed windows hunted per bug")
	var first seedFlag
	fs.Var(&first, "seed", "first seed of the first window (default: 1 with one window, else random and printed)")
	workers := fs.Int("workers", defaultWorkers(), "seeds run in parallel")
	save := fs.String("save", "", "directory for the shrunk scenarios (none when empty)")
	jsonOut := fs.Bool("json", false, "write one JSON object on stdout and nothing else there")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagFailure(e, "hunt", fs, err)
	}
	if len(pos) > 0 {
		return usageError(e, "hunt", fmt.Sprintf("unexpected argument %q", pos[0]))
	}
	bugs := scenarios.Bugs
	if shape.bug != "" && shape.bug != "all" {
		b, ok := scenarios.BugByName(shape.bug)
		if !ok {
			return usageError(e, "hunt", fmt.Sprintf("unknown bug %q for flag -bug (see syncsim bugs)", shape.bug))
		}
		bugs = []scenarios.Bug{b}
	}
	shape.bug = ""
	cfg, err := shape.config()
	if err != nil {
		return usageError(e, "hunt", err.Error())
	}
	if err := checkWorkers(*workers); err != nil {
		return usageError(e, "hunt", err.Error())
	}
	if *seeds < 1 || *seeds > maxSeedsPerRun {
		return usageError(e, "hunt", fmt.Sprintf("invalid value %d for flag -seeds: want 1..%d", *seeds, uint64(maxSeedsPerRun)))
	}
	if *windows < 1 || *windows > maxHuntWindows {
		return usageError(e, "hunt", fmt.Sprintf("invalid value %d for flag -windows: want 1..%d", *windows, maxHuntWindows))
	}
	start0 := first.v
	switch {
	case first.set:
	case *windows == 1:
		start0 = huntFirstSeed
	default:
		start0 = randomSeed()
		if !*jsonOut {
			fmt.Fprintf(e.stdout, "syncsim: hunt %d windows of %d seeds from random seed %d; repeat with -seed %d\n", *windows, *seeds, start0, start0)
		}
	}
	if start0 > ^uint64(0)-*seeds*uint64(*windows) {
		return usageError(e, "hunt", fmt.Sprintf("invalid value %d for flag -seed: the windows would pass the largest seed", start0))
	}

	start := time.Now()
	out := huntJSON{Seeds: *seeds, Windows: *windows, FirstSeed: start0, Strategy: strategyName(cfg.Strategy), Total: len(bugs), Bugs: []huntBugJSON{}}
	for _, b := range bugs {
		c := cfg
		c.Bug = b.Name
		hb, err := huntBug(b, c, huntWindows{first: start0, seeds: *seeds, count: *windows}, *workers, *save, shape.watchdog)
		if err != nil {
			fmt.Fprintf(e.stderr, "syncsim hunt: bug %s: %s\n", b.Name, oneLine(err.Error()))
			return exitUsage
		}
		if hb.Found {
			out.Found++
		}
		out.Bugs = append(out.Bugs, hb)
	}
	out.WallSeconds = time.Since(start).Seconds()

	if *jsonOut {
		if err := writeJSON(e.stdout, out); err != nil {
			return inputError(e, "hunt", err)
		}
	} else {
		writeHuntTable(e, out)
	}
	if out.Found < out.Total {
		return exitFail
	}
	return exitOK
}

// huntWindows are the disjoint seed windows of a hunt: window w runs
// seeds first + w*seeds up to seeds of them.
type huntWindows struct {
	first, seeds uint64
	count        int
}

// huntBug sweeps every window until its first failure under c and shrinks
// the failure of the first window that found one. The error is a run that
// could not be set up.
func huntBug(b scenarios.Bug, c scenarios.Config, w huntWindows, workers int, save string, watchdog time.Duration) (huntBugJSON, error) {
	start := time.Now()
	hb := huntBugJSON{Bug: b.Name, Class: b.Class, Found: true}
	var first *failure
	for i := range w.count {
		from := w.first + uint64(i)*w.seeds
		t := sweep(sweepSpec{first: from, count: w.seeds, cfg: c, workers: workers, maxFailures: 1, watchdog: watchdog})
		hb.SeedsRun += t.seeds
		if t.err != nil {
			return hb, t.err
		}
		if len(t.failures) == 0 {
			hb.Found = false
			hb.WindowsMissed++
			hb.WindowSeeds = append(hb.WindowSeeds, 0)
			continue
		}
		f := t.failures[0]
		hb.WindowSeeds = append(hb.WindowSeeds, f.seed-from+1)
		if first == nil {
			first = f
			hb.SeedsToFirstFailure = f.seed - from + 1
		}
	}
	hb.MedianSeeds, hb.WorstSeeds = windowStats(hb.WindowSeeds, w.seeds)
	if first == nil {
		hb.WallSeconds = time.Since(start).Seconds()
		return hb, nil
	}
	f := first
	shrinkFailure(f, save, nil)
	j := f.json(c)
	hb.Property, hb.Detail = j.Property, j.Detail
	hb.StepsBefore, hb.StepsAfter, hb.ShrinkSeconds, hb.ShrinkRuns = j.StepsBefore, j.StepsAfter, j.ShrinkSeconds, f.shrinkRuns
	hb.ShrinkError, hb.File, hb.SaveError, hb.Replay = j.ShrinkError, j.File, j.SaveError, j.Replay
	hb.WallSeconds = time.Since(start).Seconds()
	return hb, nil
}

// windowStats returns the median and the worst of per-window seeds to the
// first failure, a missed window (0) counting as budget+1; the median of an
// even count is the lower middle.
func windowStats(ws []uint64, budget uint64) (median, worst uint64) {
	if len(ws) == 0 {
		return 0, 0
	}
	v := make([]uint64, len(ws))
	for i, n := range ws {
		if n == 0 {
			n = budget + 1
		}
		v[i] = n
	}
	slices.Sort(v)
	return v[(len(v)-1)/2], v[len(v)-1]
}

// seedsCell prints a window figure, ">budget" for a miss.
func seedsCell(n, budget uint64) string {
	if n > budget {
		return ">" + strconv.FormatUint(budget, 10)
	}
	return strconv.FormatUint(n, 10)
}

// writeHuntTable prints one row per bug and a closing summary line.
func writeHuntTable(e env, out huntJSON) {
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	if out.Windows > 1 {
		writeWindowTable(tw, out)
		tw.Flush()
		fmt.Fprintf(e.stdout, "syncsim: hunt found %d of %d bugs in all %d windows of %d seeds (from seed %d, strategy %s) in %.1fs\n",
			out.Found, out.Total, out.Windows, out.Seeds, out.FirstSeed, out.Strategy, out.WallSeconds)
		return
	}
	fmt.Fprintln(tw, "BUG\tFOUND\tSEEDS\tPROPERTY\tSTEPS\tSHRUNK\tSHRINK TIME\tFILE")
	for _, b := range out.Bugs {
		if !b.Found {
			fmt.Fprintf(tw, "%s\tno\t>%d\t-\t-\t-\t-\t-\n", b.Bug, b.SeedsRun)
			continue
		}
		file := b.File
		switch {
		case b.ShrinkError != "":
			file = "not shrunk: " + b.ShrinkError
		case b.SaveError != "":
			file = "not saved: " + b.SaveError
		case file == "":
			file = "-"
		}
		fmt.Fprintf(tw, "%s\tyes\t%d\t%s\t%d\t%d\t%.3fs\t%s\n", b.Bug, b.SeedsToFirstFailure, b.Property,
			b.StepsBefore, b.StepsAfter, b.ShrinkSeconds, file)
	}
	tw.Flush()
	fmt.Fprintf(e.stdout, "syncsim: hunt found %d of %d bugs within %d seeds each (from seed %d, strategy %s) in %.1fs\n",
		out.Found, out.Total, out.Seeds, out.FirstSeed, out.Strategy, out.WallSeconds)
}

// writeWindowTable prints a multi-window hunt: per bug the seeds to the
// first failure in each window, their median and worst, the windows missed
// and the shrunk size of the first failure found.
func writeWindowTable(tw *tabwriter.Writer, out huntJSON) {
	fmt.Fprintln(tw, "BUG\tMEDIAN\tWORST\tMISSED\tPER WINDOW\tPROPERTY\tSTEPS\tSHRUNK\tFILE")
	for _, b := range out.Bugs {
		cells := make([]string, len(b.WindowSeeds))
		for i, n := range b.WindowSeeds {
			if n == 0 {
				n = out.Seeds + 1
			}
			cells[i] = seedsCell(n, out.Seeds)
		}
		prop, steps, shrunk, file := "-", "-", "-", "-"
		if b.SeedsToFirstFailure > 0 {
			prop, steps, shrunk = b.Property, strconv.Itoa(b.StepsBefore), strconv.Itoa(b.StepsAfter)
			file = b.File
			switch {
			case b.ShrinkError != "":
				file, shrunk = "not shrunk: "+b.ShrinkError, "-"
			case b.SaveError != "":
				file = "not saved: " + b.SaveError
			case file == "":
				file = "-"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", b.Bug, seedsCell(b.MedianSeeds, out.Seeds),
			seedsCell(b.WorstSeeds, out.Seeds), b.WindowsMissed, strings.Join(cells, " "), prop, steps, shrunk, file)
	}
}

// strategyName spells a config's strategy ("" is the mix).
func strategyName(s string) string {
	if s == "" {
		return sim.StrategyMix
	}
	return s
}
