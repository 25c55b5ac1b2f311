package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// writeScenario writes a scenario file into a fresh directory.
func writeScenario(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Times and counts the virtual clock cannot hold are input errors, one
// line, not a panic with a stack.
func TestOutOfRangeInputsAreInputErrors(t *testing.T) {
	advance := writeScenario(t, "run seed=1 backends=1\nprofile off\nadvance 2562047h\n----\nok\n")
	split := writeScenario(t, "run seed=1 backends=1\nprofile off\nadvance 500000h\ngroup\n  advance 500000h\nend\n----\nok\n")
	delay := writeScenario(t, "run seed=1 backends=1 initial=1000000h max=2000000h\nprofile off\ninject b0 rpc-error on=fetch\nexec b0 wait writes=1\n----\nok\n")
	for _, tc := range []struct {
		culprit string
		args    []string
	}{
		{advance + ":1: advances add up to more than", []string{"replay", advance}},
		{"advances add up", []string{"explain", split, "-html", filepath.Join(t.TempDir(), "x.html")}},
		{"retry delays initial=1000000h0m0s", []string{"replay", delay}},
		{"flag -seeds: want a whole number of 1 or more", []string{"run", "-seeds", "-1"}},
		{"flag -seeds: want a whole number of 1 or more", []string{"hunt", "-seeds", "x"}},
	} {
		wantUsageError(t, tc.culprit, tc.args...)
	}
}

// A missing file is reported as the OS reports it, without a package's
// prefix.
func TestMissingFileErrorHasNoPackagePrefix(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.txt")
	_, _, errs := syncsim(t, "replay", missing)
	if want := "syncsim replay: open " + missing + ": no such file or directory\n"; errs != want {
		t.Errorf("stderr %q, want %q", errs, want)
	}
}

// With -json, a usage or input error still prints one JSON object.
func TestJSONUsageErrorsPrintAnObject(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.txt")
	for _, args := range [][]string{
		{"run", "-json", "-seeds", "-1"},
		{"run", "-seeds", "0", "-json"},
		{"replay", "-json", missing},
		{"merge", "-json"},
	} {
		code, out, errs := syncsim(t, args...)
		var j errorJSON
		decodeOne(t, out, &j)
		if code != exitUsage || j.ExitCode != exitUsage || j.Error == "" || !strings.Contains(errs, j.Error) {
			t.Errorf("%v: exit %d, object %+v, stderr %q", args, code, j, errs)
		}
	}
}

// explain exits like replay -seed: 1 when a property is violated (the page
// is still written), 0 when every property held.
func TestExplainExitsOneOnAViolation(t *testing.T) {
	page := filepath.Join(t.TempDir(), "x.html")
	seed := firstFailingSeed(t, "single-alarm")
	code, out, errs := syncsim(t, "explain", "-seed", seed, "-bug", "single-alarm", "-html", page)
	if _, err := os.Stat(page); code != exitFail || err != nil || !strings.Contains(out, "violated") {
		t.Errorf("explain of failing seed %s: exit %d, page %v, stdout %q, stderr %q", seed, code, err, out, errs)
	}
	if code, _, errs := syncsim(t, "explain", "-seed", "1", "-html", page); code != exitOK {
		t.Errorf("explain of a passing seed: exit %d, stderr %q", code, errs)
	}
}

// offsetRe is the one time format: seconds from the start, fixed width.
var offsetRe = regexp.MustCompile(`[+-]\d{7}\.\d{3}`)

// A saved failure replays saying it fails as recorded, not "expectation
// met"; the report and the verdict print times as the trace does.
func TestReplayedFailureSaysItFails(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := syncsim(t, "run", "-bug", "single-alarm", "-seeds", "200", "-seed", "1", "-save", dir)
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	if code != exitFail || len(files) != 1 {
		t.Fatalf("exit %d, files %v", code, files)
	}
	if m := regexp.MustCompile(`(?m)^PROPERTY  \S+ at (\S+)$`).FindStringSubmatch(out); m == nil || !offsetRe.MatchString(m[1]) {
		t.Errorf("PROPERTY line does not print the trace's time format:\n%s", out)
	}
	// When the shrinker re-drew the seed, the report says which one the file runs.
	text, _ := os.ReadFile(files[0])
	fileSeed := regexp.MustCompile(`(?m)^run seed=(\d+) `).FindSubmatch(text)
	reportSeed := regexp.MustCompile(`(?m)^SEED\s+(\d+)$`).FindStringSubmatch(out)
	if fileSeed == nil || reportSeed == nil {
		t.Fatalf("no seed in the file or the report")
	}
	if fs := string(fileSeed[1]); fs != reportSeed[1] && !strings.Contains(out, "the file runs under seed "+fs+" ") {
		t.Errorf("report SEED %s, file seed %s, and the SHRUNK line does not say so:\n%s", reportSeed[1], fs, out)
	}
	code, _, errs := syncsim(t, "replay", files[0])
	if code != exitOK || strings.Contains(errs, "expectation met") || !strings.Contains(errs, "the failure this file records") ||
		!offsetRe.MatchString(errs) {
		t.Errorf("replay of a saved failure: exit %d, verdict %q", code, errs)
	}
}

// offset prints what the trace prints for the same instant.
func TestOffsetMatchesTheTrace(t *testing.T) {
	code, out, _ := syncsim(t, "replay", "-seed", "3")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var last string
	for _, l := range strings.Split(out, "\n") {
		if offsetRe.MatchString(l) && strings.HasPrefix(l, "+") {
			last = l
		}
	}
	if last == "" {
		t.Fatal("no timed trace line")
	}
	stamp := strings.Fields(last)[0]
	ms, ok := offsetMS(stamp) // explain's reader of trace times
	if d := time.Duration(ms) * time.Millisecond; !ok || offset(d) != stamp {
		t.Errorf("offset(%v) = %q, trace printed %q", d, offset(d), stamp)
	}
}
