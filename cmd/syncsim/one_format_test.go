package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/scenarios"
)

// TestReportSpeaksOneStepCountAndOneTimeFormat runs a planted bug and reads
// its report: CONFIG's steps are SHRUNK's "before" and the saved file's
// step count is SHRUNK's "after", as scenarios.Steps counts them; every
// time in the report, its trace lines included, is in the trace's format
// (no Go durations like +1.5s, no epoch milliseconds).
func TestReportSpeaksOneStepCountAndOneTimeFormat(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := syncsim(t, "run", "-bug", "single-alarm", "-seeds", "50", "-seed", "1", "-steps", "17", "-save", dir)
	if code != exitFail {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, out, errs)
	}
	m := regexp.MustCompile(`(?m)^CONFIG    steps=(\d+) `).FindStringSubmatch(out)
	sh := regexp.MustCompile(`(?m)^SHRUNK    (\S+): (\d+) -> (\d+) steps`).FindStringSubmatch(out)
	if m == nil || sh == nil {
		t.Fatalf("no CONFIG or SHRUNK line:\n%s", out)
	}
	if m[1] != "17" || sh[2] != "17" {
		t.Errorf("CONFIG steps=%s, SHRUNK from %s; want both 17 (-steps 17)", m[1], sh[2])
	}
	text, err := os.ReadFile(sh[1])
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenarios.Parse(string(text))
	if err != nil {
		t.Fatal(err)
	}
	if strconv.Itoa(scenarios.Steps(s.Ops)) != sh[3] {
		t.Errorf("SHRUNK says %s steps, the saved file has %d", sh[3], scenarios.Steps(s.Ops))
	}
	checkOneTimeFormat(t, out)
	checkOneTimeFormat(t, string(text))
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	for _, f := range files {
		_, rep, _ := syncsim(t, "replay", f)
		checkOneTimeFormat(t, rep)
	}
}

// TestGeneratedScenariosHaveTheStepsAskedFor: the generator's size is the
// size every report prints.
func TestGeneratedScenariosHaveTheStepsAskedFor(t *testing.T) {
	for _, steps := range []int{1, 2, 3, 30} {
		c := scenarios.DefaultConfig
		c.Steps = steps
		for seed := uint64(1); seed <= 200; seed++ {
			s := scenarios.FromSeed(seed, c)
			if got := scenarios.Steps(s.Ops); got != steps {
				t.Fatalf("seed %d -steps %d: generated %d steps:\n%s", seed, steps, got, scenarios.Format(s))
			}
		}
	}
}

// Times that are not in the one format: a Go duration after "+" or as an
// at=, to= or notBefore= time, or a notBefore written as a bare number
// (epoch or relative milliseconds). Durations (delays, tick lengths) stay
// durations.
var (
	goDurationRe = regexp.MustCompile(`(\+|\b(at|to|notBefore)=)\d+(\.\d+)?(ms|s|m|h)\b`)
	bareNBRe     = regexp.MustCompile(`notBefore[= ]\d`)
	notBeforeRe  = regexp.MustCompile(`notBefore[= ]([+-]?\d[\d.]*)`)
)

func checkOneTimeFormat(t *testing.T, text string) {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "advance ") || strings.HasPrefix(strings.TrimSpace(line), "advance ") || strings.HasPrefix(line, "run ") {
			continue // a scenario's input: durations, not times
		}
		if m := goDurationRe.FindString(line); m != "" {
			t.Errorf("a time not in the trace's format: %q in %.200q", m, line)
		}
		if m := bareNBRe.FindString(line); m != "" {
			t.Errorf("a notBefore not in the trace's format: %q in %.200q", m, line)
		}
		for _, m := range notBeforeRe.FindAllStringSubmatch(line, -1) {
			if offsetRe.FindString(m[1]) != m[1] {
				t.Errorf("notBefore %q in %.200q", m[1], line)
			}
		}
	}
}
