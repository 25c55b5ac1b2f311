package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/syncsim/syncsim/scenarios"
)

// replayJSON is `syncsim replay -json`: one entry per case (a -seed replay
// is one case).
type replayJSON struct {
	Cases  []replayCaseJSON `json:"cases"`
	Failed int              `json:"failed"` // cases that exit 1
}

type replayCaseJSON struct {
	Pos       string         `json:"pos"` // file:line, or "seed N"
	Seed      uint64         `json:"seed"`
	TraceHash string         `json:"trace_hash"`
	Violation *violationJSON `json:"violation"` // null when every property held
	// ExpectationMet is null when nothing was compared (a -seed replay, a
	// case without an expected block, or -bug overriding the file's bug).
	ExpectationMet *bool    `json:"expectation_met"`
	Diff           string   `json:"diff,omitempty"` // (-want +got)
	Trace          []string `json:"trace"`
}

type violationJSON struct {
	Property  string  `json:"property"`
	Detail    string  `json:"detail"`
	AtSeconds float64 `json:"at_seconds"`
}

// replayCase is one scenario to replay and what it must show.
type replayCase struct {
	pos      string
	scenario scenarios.Scenario
	expected string // "" when nothing is compared
}

func cmdReplay(e env, args []string) int {
	fs := newFlagSet("replay")
	var shape shapeFlags
	shape.register(fs)
	var seed seedFlag
	fs.Var(&seed, "seed", "replay the scenario `seed` S generates (with the shape flags)")
	jsonOut := fs.Bool("json", false, "write one JSON object on stdout and nothing else there")
	record := fs.String("record", "", "also write the scenario to `OUT` with every group's schedule as it ran (a file that replays this run whatever the seed's strategy)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagFailure(e, "replay", fs, err)
	}
	cases, code := replayCases(e, "replay", fs, &shape, seed, pos)
	if code != exitOK {
		return code
	}
	out := replayJSON{Cases: []replayCaseJSON{}}
	var recorded []string
	for i, c := range cases {
		r, err := scenarios.Run(c.scenario, scenarios.RunOptions{Watchdog: shape.watchdog, RecordSchedules: *record != ""})
		if err != nil {
			return inputError(e, "replay", fmt.Errorf("%s: %w", c.pos, err))
		}
		recorded = append(recorded, scenarios.Format(r.Recorded))
		j := replayCaseJSON{Pos: c.pos, Seed: c.scenario.Seed, TraceHash: r.Hash, Trace: r.Trace.Lines()}
		if v := r.Violation; v != nil {
			j.Violation = &violationJSON{Property: v.Property, Detail: v.Detail, AtSeconds: v.At.Seconds()}
		}
		failed := r.Violation != nil
		if c.expected != "" {
			got := observe(r)
			met := got == c.expected
			j.ExpectationMet = &met
			failed = !met
			if !met {
				j.Diff = cmp.Diff(c.expected, got)
			}
		}
		if failed {
			out.Failed++
		}
		if !*jsonOut {
			if len(cases) > 1 {
				fmt.Fprintf(e.stdout, "# case %d of %d: %s\n", i+1, len(cases), c.pos)
			}
			r.Trace.WriteTo(e.stdout)
			writeVerdict(e.stderr, c, j)
			if r.Violation != nil && r.Violation.Stacks != "" {
				fmt.Fprintln(e.stderr, "STACKS (goroutines when it was reported)")
				io.WriteString(e.stderr, scenarios.StacksExcerpt(r.Violation.Stacks, "  "))
			}
		}
		out.Cases = append(out.Cases, j)
	}
	if *jsonOut {
		if err := writeJSON(e.stdout, out); err != nil {
			return inputError(e, "replay", err)
		}
	}
	if *record != "" {
		// Cases of one file are separated by an empty expectation.
		if err := os.WriteFile(*record, []byte(strings.Join(recorded, "----\n\n")), 0o644); err != nil {
			return inputError(e, "replay", err)
		}
	}
	if out.Failed > 0 {
		return exitFail
	}
	return exitOK
}

// replayCases reads what to replay from a FILE argument or -seed, not
// both. Shape flags other than -bug apply to -seed only; -bug with a FILE
// replaces the file's bug and then its expectation is not compared, for it
// was written for the file's own bug.
func replayCases(e env, sub string, fs *flag.FlagSet, shape *shapeFlags, seed seedFlag, pos []string) ([]replayCase, int) {
	shaped := ""
	bugSet := false
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "steps", "backends", "scheduler", "local", "strategy":
			shaped = f.Name
		case "bug":
			bugSet = true
		}
	})
	switch {
	case len(pos) > 1:
		return nil, usageError(e, sub, fmt.Sprintf("unexpected argument %q: one file at a time", pos[1]))
	case len(pos) == 1 && seed.set:
		return nil, usageError(e, sub, "give a FILE or -seed, not both")
	case len(pos) == 0 && !seed.set:
		return nil, usageError(e, sub, "nothing to replay: give a scenario FILE or -seed S")
	case len(pos) == 1 && shaped != "":
		return nil, usageError(e, sub, fmt.Sprintf("flag -%s shapes a generated scenario; a file carries its own config", shaped))
	}
	cfg, err := shape.config()
	if err != nil {
		return nil, usageError(e, sub, err.Error())
	}
	if seed.set {
		s := scenarios.FromSeed(seed.v, cfg)
		return []replayCase{{pos: fmt.Sprintf("seed %d", seed.v), scenario: s}}, exitOK
	}
	fc, err := readScenarioFile(pos[0])
	if err != nil {
		return nil, inputError(e, sub, err)
	}
	cases := make([]replayCase, len(fc))
	for i, c := range fc {
		cases[i] = replayCase{pos: c.pos, scenario: c.scenario, expected: c.expected}
		// -properties judges a file's run too; a file's expectation names
		// a property, which may then go unjudged.
		cases[i].scenario.Config.Properties = cfg.Properties
		if bugSet {
			cases[i].scenario.Config.Bug = cfg.Bug
			cases[i].expected = ""
		}
	}
	return cases, exitOK
}

// writeVerdict says on stderr how a replayed case ended; stdout carries
// only the trace.
func writeVerdict(w io.Writer, c replayCase, j replayCaseJSON) {
	switch {
	case j.ExpectationMet != nil && !*j.ExpectationMet:
		fmt.Fprintf(w, "syncsim replay: %s: expectation not met (-want +got):\n%s", c.pos, j.Diff)
	case j.ExpectationMet != nil && j.Violation != nil:
		// A saved failure: it fails as recorded, which is why it exits 0.
		fmt.Fprintf(w, "syncsim replay: %s: property %s violated at %s, the failure this file records (exit 0: it reproduces): %s\n",
			c.pos, j.Violation.Property, offset(secondsDuration(j.Violation.AtSeconds)), firstLine(j.Violation.Detail))
	case j.ExpectationMet != nil:
		fmt.Fprintf(w, "syncsim replay: %s: every property held, as the file expects\n", c.pos)
	case j.Violation != nil:
		fmt.Fprintf(w, "syncsim replay: %s: property %s violated at %s: %s\n", c.pos, j.Violation.Property,
			offset(secondsDuration(j.Violation.AtSeconds)), firstLine(j.Violation.Detail))
	default:
		fmt.Fprintf(w, "syncsim replay: %s: every property held\n", c.pos)
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
