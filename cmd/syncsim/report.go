package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/syncsim/syncsim/scenarios"
)

// maxDetailLines bounds the detail a report prints; the saved file and a
// replay show the rest.
const maxDetailLines = 40

// corpusDir is where scenario files live on as regression tests.
const corpusDir = "scenarios/testdata/corpus"

// writeReport prints one failure in a fixed shape (STYLE 9): SEED, PROFILE,
// PROPERTY, DETAIL, LAST TRACE LINES, SHRUNK, and REPLAY, whose lines are
// the commands to paste.
// It is printed as soon as the failure is found, i counting from 1.
func writeReport(w io.Writer, f *failure, c scenarios.Config, i int) {
	var b strings.Builder
	fmt.Fprintf(&b, "--- FAIL %d: seed %d, property %s\n", i, f.seed, f.property)
	fmt.Fprintf(&b, "SEED      %d\n", f.seed)
	fmt.Fprintf(&b, "CONFIG    steps=%d backends=%d scheduler=%s bug=%s\n", c.Steps, f.scenario.Config.Backends, c.Scheduler, orNone(c.Bug))
	fmt.Fprintf(&b, "PROFILE   %s\n", f.scenario.Profile)
	fmt.Fprintf(&b, "PROPERTY  %s at %s\n", f.property, offset(f.at))
	b.WriteString("DETAIL\n")
	detail := strings.Split(strings.TrimRight(f.detail, "\n"), "\n")
	if len(detail) > maxDetailLines {
		extra := len(detail) - maxDetailLines
		detail = append(detail[:maxDetailLines:maxDetailLines], fmt.Sprintf("... %d more lines (replay shows them all)", extra))
	}
	for _, l := range detail {
		b.WriteString("  " + l + "\n")
	}
	fmt.Fprintf(&b, "LAST TRACE LINES (%d of %d events)\n", min(len(f.tail), f.events), f.events)
	for _, l := range f.tail {
		b.WriteString("  " + l + "\n")
	}
	if f.stacks != "" {
		b.WriteString("STACKS (goroutines when it was reported)\n")
		b.WriteString(scenarios.StacksExcerpt(f.stacks, "  "))
	}
	b.WriteString("SHRUNK    " + f.shrunkLine() + "\n")
	b.WriteString("REPLAY\n")
	if f.file != "" {
		b.WriteString("  syncsim replay " + f.file + "\n")
	}
	b.WriteString("  " + replayLine(f.seed, c) + "\n")
	if f.file != "" {
		fmt.Fprintf(&b, "  cp %s %s/ && go test ./scenarios -run 'TestCorpus/%s$'\n",
			f.file, corpusDir, strings.TrimSuffix(filepath.Base(f.file), ".txt"))
	}
	io.WriteString(w, b.String())
}

// shrunkLine is the SHRUNK section: where the file went and what it cost.
func (f *failure) shrunkLine() string {
	switch {
	case f.shrinkSkipped != "":
		return "not shrunk: " + f.shrinkSkipped
	case f.shrinkErr != nil:
		return fmt.Sprintf("not shrunk (%d steps): %s", f.stepsBefore, oneLine(f.shrinkErr.Error()))
	}
	s := fmt.Sprintf("%d -> %d steps in %s (%d runs)", f.stepsBefore, f.stepsAfter, f.shrinkTime.Round(time.Millisecond), f.shrinkRuns)
	if f.budgetHit {
		s += ", stopped by the shrink budget"
	}
	if f.shrunkSeed != 0 && f.shrunkSeed != f.seed {
		s += fmt.Sprintf("; the file runs under seed %d (the shrinker re-drew the random choices)", f.shrunkSeed)
	}
	switch {
	case f.file != "":
		s = f.file + ": " + s
	case f.saveErr != nil:
		s += "; not saved: " + oneLine(f.saveErr.Error())
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// summaryLine is the last line of every run, all numbers measured:
//
//	syncsim: 5000 seeds (first 123), 5000 passed, 0 failed, 152340 steps run, 1.2M events, 3.4 h simulated in 8.1s (617 scenarios/s, 150k events/s)
func summaryLine(sp sweepSpec, t totals, wall time.Duration) string {
	where := fmt.Sprintf("first %d", sp.first)
	if sp.shard.n > 0 {
		where += ", shard " + sp.shard.String()
	}
	s := fmt.Sprintf("syncsim: %d seeds (%s), %d passed, %d failed", t.seeds, where, t.passed, len(t.failures))
	switch {
	case t.stopped:
		s += fmt.Sprintf(" (stopped at -max-failures %d)", sp.maxFailures)
	case t.interrupted:
		s += fmt.Sprintf(" (interrupted after %d of %d seeds)", t.seeds, sp.seeds())
	}
	return s + fmt.Sprintf(", %d steps run, %s events, %s simulated in %s (%s scenarios/s, %s events/s)",
		t.steps, humanCount(float64(t.events)), humanSim(t.sim), humanWall(wall),
		humanCount(rate(float64(t.seeds), wall)), humanCount(rate(float64(t.events), wall)))
}

// humanCount prints n with a k/M/G suffix past four digits.
func humanCount(n float64) string {
	switch {
	case n < 10_000:
		return fmt.Sprintf("%.0f", n)
	case n < 100_000:
		return fmt.Sprintf("%.1fk", n/1e3)
	case n < 1e6:
		return fmt.Sprintf("%.0fk", n/1e3)
	case n < 1e9:
		return fmt.Sprintf("%.1fM", n/1e6)
	}
	return fmt.Sprintf("%.1fG", n/1e9)
}

// humanSim prints simulated time in the largest unit that keeps it
// readable.
func humanSim(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%.1f min", d.Minutes())
	case d < 100*time.Hour:
		return fmt.Sprintf("%.1f h", d.Hours())
	}
	return fmt.Sprintf("%.1f d", d.Hours()/24)
}

// humanWall prints a wall time in seconds, with two decimals below 10 s so
// that a short sweep does not read "0.0s".
func humanWall(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("%.2fs", d.Seconds())
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}
