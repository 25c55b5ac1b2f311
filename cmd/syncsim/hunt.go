package main

import (
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/syncsim/syncsim/scenarios"
)

// defaultHuntSeeds is the per-bug seed budget; DESIGN promises every
// planted bug is found within it.
const defaultHuntSeeds = 2000

// huntFirstSeed is where every hunt starts, so that seeds_to_first_failure
// is the failing seed itself and hunts are comparable across machines.
const huntFirstSeed = 1

// huntJSON is `syncsim hunt -json`.
type huntJSON struct {
	Seeds       uint64        `json:"seeds"` // the per-bug budget
	Found       int           `json:"found"`
	Total       int           `json:"total"`
	WallSeconds float64       `json:"wall_seconds"`
	Bugs        []huntBugJSON `json:"bugs"`
}

// huntBugJSON is one bug's hunt.
type huntBugJSON struct {
	Bug                 string  `json:"bug"`
	Class               string  `json:"class"`
	Found               bool    `json:"found"`
	SeedsToFirstFailure uint64  `json:"seeds_to_first_failure"` // 0 when not found
	SeedsRun            int     `json:"seeds_run"`
	Property            string  `json:"property"`
	Detail              string  `json:"detail"`
	StepsBefore         int     `json:"steps_before"`
	StepsAfter          int     `json:"steps_after"`
	ShrinkSeconds       float64 `json:"shrink_seconds"`
	ShrinkRuns          int     `json:"shrink_runs"`
	ShrinkError         string  `json:"shrink_error,omitempty"`
	File                string  `json:"file"`
	SaveError           string  `json:"save_error,omitempty"`
	Replay              string  `json:"replay"`
	WallSeconds         float64 `json:"wall_seconds"` // sweep and shrink
}

func cmdHunt(e env, args []string) int {
	fs := newFlagSet("hunt")
	var shape shapeFlags
	shape.register(fs)
	seeds := newCountFlag(fs, "seeds", defaultHuntSeeds, "`N` seeds per bug, from seed 1")
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

	start := time.Now()
	out := huntJSON{Seeds: *seeds, Total: len(bugs), Bugs: []huntBugJSON{}}
	for _, b := range bugs {
		c := cfg
		c.Bug = b.Name
		hb, err := huntBug(b, c, *seeds, *workers, *save, shape.watchdog)
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

// huntBug sweeps seeds from huntFirstSeed until the first failure under c
// and shrinks it. The error is a run that could not be set up.
func huntBug(b scenarios.Bug, c scenarios.Config, seeds uint64, workers int, save string, watchdog time.Duration) (huntBugJSON, error) {
	start := time.Now()
	sp := sweepSpec{first: huntFirstSeed, count: seeds, cfg: c, workers: workers, maxFailures: 1, watchdog: watchdog}
	t := sweep(sp)
	hb := huntBugJSON{Bug: b.Name, Class: b.Class, SeedsRun: t.seeds}
	if t.err != nil {
		return hb, t.err
	}
	if len(t.failures) == 0 {
		hb.WallSeconds = time.Since(start).Seconds()
		return hb, nil
	}
	f := t.failures[0]
	shrinkFailure(f, save, nil)
	j := f.json(c)
	hb.Found = true
	hb.SeedsToFirstFailure = f.seed - huntFirstSeed + 1
	hb.Property, hb.Detail = j.Property, j.Detail
	hb.StepsBefore, hb.StepsAfter, hb.ShrinkSeconds, hb.ShrinkRuns = j.StepsBefore, j.StepsAfter, j.ShrinkSeconds, f.shrinkRuns
	hb.ShrinkError, hb.File, hb.SaveError, hb.Replay = j.ShrinkError, j.File, j.SaveError, j.Replay
	hb.WallSeconds = time.Since(start).Seconds()
	return hb, nil
}

// writeHuntTable prints one row per bug and a closing summary line.
func writeHuntTable(e env, out huntJSON) {
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
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
	fmt.Fprintf(e.stdout, "syncsim: hunt found %d of %d bugs within %d seeds each in %.1fs\n",
		out.Found, out.Total, out.Seeds, out.WallSeconds)
}
