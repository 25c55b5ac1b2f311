package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/syncsim/syncsim/scenarios"
)

// shrinkFailure shrinks a sweep's failure keeping its property and, when
// dir is not "", saves the shrunk scenario there. Errors are recorded on f
// for the report: a failure stays a failure whether or not it shrinks.
// Once stop is closed the shrink ends early and what it reached is saved.
func shrinkFailure(f *failure, dir string, stop <-chan struct{}) {
	if f.shrinkSkipped != "" {
		return
	}
	small, st, err := shrinkScenario(f.scenario, f.property, stop)
	if err != nil {
		f.shrinkErr = err
		return
	}
	f.stepsBefore, f.stepsAfter = st.stepsBefore, st.stepsAfter
	f.shrunkSeed = small.Seed
	f.shrinkTime, f.shrinkRuns, f.budgetHit = st.elapsed, st.runs, st.budgetHit
	if dir == "" {
		return
	}
	f.file, f.saveErr = saveScenario(dir, small, f.property)
}

// shrinkJSON is `syncsim shrink -json`.
type shrinkJSON struct {
	Source        string  `json:"source"` // file:line or "seed N"
	Property      string  `json:"property"`
	StepsBefore   int     `json:"steps_before"`
	StepsAfter    int     `json:"steps_after"`
	ShrinkSeconds float64 `json:"shrink_seconds"`
	Runs          int     `json:"runs"`
	BudgetHit     bool    `json:"budget_hit"`
	File          string  `json:"file"`
}

// cmdShrink shrinks the first failing case of FILE (or the scenario of
// -seed) and writes the result as a scenario file: to -o, or under -save
// with its corpus name. It exits 0 once the file is written and 2 when the
// input holds every property (there is nothing to shrink).
func cmdShrink(e env, args []string) int {
	fs := newFlagSet("shrink")
	var shape shapeFlags
	shape.register(fs)
	var seed seedFlag
	fs.Var(&seed, "seed", "shrink the scenario `seed` S generates (with the shape flags)")
	out := fs.String("o", "", "write the shrunk scenario file here")
	save := fs.String("save", defaultSaveDir, "without -o: directory for the shrunk file, named by its corpus name")
	property := fs.String("property", "", "property to keep violated (default: the one the input violates)")
	jsonOut := fs.Bool("json", false, "write one JSON object on stdout and nothing else there")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagFailure(e, "shrink", fs, err)
	}
	cases, code := replayCases(e, "shrink", fs, &shape, seed, pos)
	if code != exitOK {
		return code
	}
	c, prop, ok := firstFailing(e, cases, *property)
	if !ok {
		return exitUsage
	}
	small, st, err := shrinkScenario(c.scenario, prop, nil)
	if err != nil {
		return inputError(e, "shrink", fmt.Errorf("%s: %w", c.pos, err))
	}
	path, err := writeShrunk(small, prop, *out, *save)
	if err != nil {
		return inputError(e, "shrink", err)
	}
	j := shrinkJSON{
		Source: c.pos, Property: prop, StepsBefore: st.stepsBefore, StepsAfter: st.stepsAfter,
		ShrinkSeconds: st.elapsed.Seconds(), Runs: st.runs, BudgetHit: st.budgetHit, File: path,
	}
	if *jsonOut {
		if err := writeJSON(e.stdout, j); err != nil {
			return inputError(e, "shrink", err)
		}
		return exitOK
	}
	budget := ""
	if st.budgetHit {
		budget = ", stopped by the shrink budget"
	}
	fmt.Fprintf(e.stdout, "syncsim: shrunk %s (property %s): %d -> %d steps in %.3fs (%d runs%s)\n",
		c.pos, prop, st.stepsBefore, st.stepsAfter, st.elapsed.Seconds(), st.runs, budget)
	fmt.Fprintf(e.stdout, "wrote %s\n  syncsim replay %s\n", path, path)
	return exitOK
}

// firstFailing runs the cases in order and returns the first that violates
// want (any property when want is ""), with the property it violates.
func firstFailing(e env, cases []replayCase, want string) (replayCase, string, bool) {
	for _, c := range cases {
		r, err := scenarios.Run(c.scenario, scenarios.RunOptions{TraceKeep: sweepTraceKeep})
		if err != nil {
			inputError(e, "shrink", fmt.Errorf("%s: %w", c.pos, err))
			return c, "", false
		}
		if v := r.Violation; v != nil && (want == "" || v.Property == want) {
			return c, v.Property, true
		}
	}
	what := "every property holds"
	if want != "" {
		what = "property " + want + " holds"
	}
	fmt.Fprintf(e.stderr, "syncsim shrink: %s: %s, nothing to shrink\n", cases[0].pos, what)
	return replayCase{}, "", false
}

// writeShrunk writes s to out (its directory must exist) or, when out is
// "", under dir with its corpus name.
func writeShrunk(s scenarios.Scenario, property, out, dir string) (string, error) {
	if out == "" {
		return saveScenario(dir, s, property)
	}
	// WriteCorpusFile names the file itself: write into a fresh directory
	// next to out, then rename, so that out appears whole or not at all.
	tmp, err := os.MkdirTemp(filepath.Dir(out), ".syncsim-shrink-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	path, err := saveScenario(tmp, s, property)
	if err != nil {
		return "", err
	}
	// The file's Replay comment names the corpus test of the name it was
	// saved under; it will live as out, so name that one (never the input
	// file's name, nor a name the file does not have).
	text, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	saved, want := corpusTestName(path), corpusTestName(out)
	text = bytes.Replace(text, []byte("'TestCorpus/"+saved+"$'"), []byte("'TestCorpus/"+want+"$'"), 1)
	if err := os.WriteFile(path, text, 0o644); err != nil {
		return "", err
	}
	if err := os.Rename(path, out); err != nil {
		return "", err
	}
	return out, nil
}

// corpusTestName is TestCorpus's subtest for a corpus file at path: its
// base name without .txt, as datadriven.Walk names it.
func corpusTestName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), ".txt")
}
