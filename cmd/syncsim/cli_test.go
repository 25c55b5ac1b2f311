package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/scenarios"
)

// syncsim runs the command in-process and returns its exit code, stdout
// and stderr.
func syncsim(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// wantUsageError checks exit 2 with one stderr line that names culprit,
// and nothing on stdout.
func wantUsageError(t *testing.T, culprit string, args ...string) {
	t.Helper()
	code, out, errs := syncsim(t, args...)
	if code != exitUsage {
		t.Fatalf("syncsim %s: exit %d, want %d (stderr %q)", strings.Join(args, " "), code, exitUsage, errs)
	}
	if out != "" {
		t.Errorf("syncsim %s: stdout %q, want nothing", strings.Join(args, " "), out)
	}
	if strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, "\n") {
		t.Errorf("syncsim %s: stderr is not one line: %q", strings.Join(args, " "), errs)
	}
	if !strings.Contains(errs, culprit) {
		t.Errorf("syncsim %s: stderr %q does not name %q", strings.Join(args, " "), errs, culprit)
	}
}

func TestUsageErrorsAreOneLine(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.txt")
	for _, tc := range []struct {
		culprit string
		args    []string
	}{
		{"no subcommand", nil},
		{`"frobnicate"`, []string{"frobnicate"}},
		{"-foo", []string{"run", "-foo"}},
		{"-seeds", []string{"run", "-seeds", "many"}},
		{"-shard", []string{"run", "-seed", "1", "-shard", "3/2"}},
		{"-shard", []string{"run", "-seed", "1", "-shard", "x"}},
		{"-shard needs -seed", []string{"run", "-shard", "0/2"}},
		{`"nope"`, []string{"run", "-bug", "nope"}},
		{`"nope"`, []string{"hunt", "-bug", "nope"}},
		{"-scheduler", []string{"run", "-scheduler", "redis"}},
		{"-local", []string{"run", "-local", "redis"}},
		{"-workers", []string{"run", "-workers", "0"}},
		{"-backends", []string{"replay", "-seed", "1", "-backends", "-1"}},
		{`"extra"`, []string{"run", "extra"}},
		{missing, []string{"replay", missing}},
		{missing, []string{"shrink", missing}},
		{missing, []string{"explain", missing, "-html", filepath.Join(t.TempDir(), "x.html")}},
		{"-html", []string{"explain", "-seed", "1"}},
		{"nothing to replay", []string{"replay"}},
		{"not both", []string{"replay", missing, "-seed", "1"}},
		{"-steps", []string{"replay", missing, "-steps", "3"}},
		{"-strategy", []string{"run", "-strategy", "dfs"}},
		{"-windows", []string{"hunt", "-windows", "0"}},
		{`"nope"`, []string{"bench", "-strategies", "-bug", "nope"}},
	} {
		wantUsageError(t, tc.culprit, tc.args...)
	}
}

// summaryRe is the shape of the last line of every run.
var summaryRe = regexp.MustCompile(`^syncsim: \d+ seeds \(first \d+(, shard \d+/\d+)?\), \d+ passed, \d+ failed( \((stopped at -max-failures \d+|interrupted after \d+ of \d+ seeds)\))?, \d+ steps run, [0-9.]+[kMG]? events, [0-9.]+ (s|min|h|d) simulated in [0-9.]+s \([0-9.]+[kMG]? scenarios/s, [0-9.]+[kMG]? events/s\)$`)

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func TestCleanSweepExitsZeroWithSummary(t *testing.T) {
	code, out, errs := syncsim(t, "run", "-seeds", "100", "-seed", "1", "-save", t.TempDir())
	if code != exitOK {
		t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	if l := lastLine(out); !summaryRe.MatchString(l) || !strings.Contains(l, "100 seeds (first 1), 100 passed, 0 failed") {
		t.Errorf("summary line %q does not have the documented shape", l)
	}
}

// Every store the flags name runs clean: no scheduler, and SQLite for both
// the intent store and the local store.
func TestStoreFlagsSweepClean(t *testing.T) {
	for _, args := range [][]string{
		{"-scheduler", "none"},
		{"-scheduler", "sqlite", "-local", "sqlite", "-seeds", "5"},
	} {
		argv := append([]string{"run", "-seeds", "40", "-seed", "1", "-save", t.TempDir()}, args...)
		if code, out, errs := syncsim(t, argv...); code != exitOK {
			t.Errorf("%v: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, out, errs)
		}
	}
}

func TestRandomSeedIsPrinted(t *testing.T) {
	code, out, _ := syncsim(t, "run", "-seeds", "5", "-save", t.TempDir())
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	m := regexp.MustCompile(`repeat with -seed (\d+)`).FindStringSubmatch(out)
	if m == nil || !strings.Contains(lastLine(out), "(first "+m[1]+")") {
		t.Errorf("random first seed not printed or not in the summary:\n%s", out)
	}
}

func TestPlantedBugReportEndsInReplayLines(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := syncsim(t, "run", "-bug", "single-alarm", "-seeds", "200", "-seed", "1", "-save", dir)
	if code != exitFail {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	// The sections come in a fixed order.
	at := 0
	for _, section := range []string{"\nSEED ", "\nPROFILE ", "\nPROPERTY ", "\nDETAIL\n", "\nLAST TRACE LINES ", "\nSHRUNK ", "\nREPLAY\n"} {
		i := strings.Index(out[at:], section)
		if i < 0 {
			t.Fatalf("report lacks %q after offset %d:\n%s", section, at, out)
		}
		at += i + len(section)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	if len(files) != 1 {
		t.Fatalf("saved files %v, want one", files)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	n := len(lines)
	if n < 5 {
		t.Fatalf("output too short:\n%s", out)
	}
	wantTail := []string{
		"  syncsim replay " + files[0],
		"  syncsim replay -seed " + firstFailingSeed(t, "single-alarm") + " -steps 30 -bug single-alarm",
	}
	if got := lines[n-4 : n-2]; !slices.Equal(got, wantTail) {
		t.Errorf("replay lines %q, want %q", got, wantTail)
	}
	if !strings.Contains(lines[n-2], "go test ./scenarios -run 'TestCorpus/") {
		t.Errorf("no go test hint before the summary: %q", lines[n-2])
	}
	if !summaryRe.MatchString(lines[n-1]) {
		t.Errorf("summary %q", lines[n-1])
	}
	// The saved file replays with its expectation met, the same way twice.
	code1, out1, errs1 := syncsim(t, "replay", files[0])
	code2, out2, _ := syncsim(t, "replay", files[0])
	if code1 != exitOK || code2 != exitOK {
		t.Fatalf("replay of the saved file: exit %d/%d, stderr %q", code1, code2, errs1)
	}
	if lastLine(out1) != lastLine(out2) || !strings.HasPrefix(lastLine(out1), "trace-hash ") {
		t.Errorf("replays end %q and %q, want the same trace-hash line", lastLine(out1), lastLine(out2))
	}
}

// decodeOne checks that stdout is exactly one JSON object and decodes it.
func decodeOne(t *testing.T, stdout string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(stdout))
	if err := dec.Decode(v); err != nil {
		t.Fatalf("stdout is not a JSON object: %v\n%s", err, stdout)
	}
	var extra json.RawMessage
	if err := dec.Decode(&extra); err != io.EOF {
		t.Fatalf("stdout holds more than one JSON value (%v)", err)
	}
	if !strings.HasPrefix(strings.TrimSpace(stdout), "{") {
		t.Fatalf("stdout is not an object: %s", stdout)
	}
}

// sweepJSON runs `syncsim run -json args` expecting exit wantCode (-1:
// either 0 or 1).
func sweepJSON(t *testing.T, wantCode int, args ...string) runJSON {
	t.Helper()
	code, out, errs := syncsim(t, append([]string{"run", "-json"}, args...)...)
	if (wantCode >= 0 && code != wantCode) || code == exitUsage {
		t.Fatalf("syncsim run -json %s: exit %d, want %d; stderr %q", strings.Join(args, " "), code, wantCode, errs)
	}
	var j runJSON
	decodeOne(t, out, &j)
	return j
}

func TestJSONIsOneObjectWithTheDocumentedFields(t *testing.T) {
	code, out, _ := syncsim(t, "run", "-json", "-seeds", "30", "-seed", "9", "-bug", "zero-based-attempts", "-save", t.TempDir())
	if code != exitFail {
		t.Fatalf("exit %d, want 1", code)
	}
	var fields map[string]any
	decodeOne(t, out, &fields)
	for _, k := range []string{"seeds", "first_seed", "passed", "failed", "steps", "events", "sim_seconds",
		"wall_seconds", "scenarios_per_sec", "events_per_sec", "failures"} {
		if _, ok := fields[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	var j runJSON
	decodeOne(t, out, &j)
	if len(j.Failures) != 1 || j.Failures[0].File == "" || j.Failures[0].StepsAfter >= j.Failures[0].StepsBefore {
		t.Errorf("failures %+v, want one shrunk and saved", j.Failures)
	}
}

// comparable strips what depends on the machine (wall time, workers).
func comparable(j runJSON) runJSON {
	j.WallSeconds, j.ScenariosPerSec, j.EventsPerSec, j.Workers = 0, 0, 0, 0
	return j
}

func TestResultsDoNotDependOnWorkers(t *testing.T) {
	args := []string{"-bug", "fifo-overlap", "-seeds", "300", "-seed", "1", "-max-failures", "0", "-shrink=false"}
	one := sweepJSON(t, exitFail, append(args, "-workers", "1")...)
	four := sweepJSON(t, exitFail, append(args, "-workers", "4")...)
	if one.Failed < 2 {
		t.Fatalf("want several failures to compare, got %d", one.Failed)
	}
	a, b := comparable(one), comparable(four)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Errorf("-workers 1 and -workers 4 differ:\n%s\n%s", ja, jb)
	}
	// -max-failures stops at the same prefix of seeds for any worker count.
	s1 := sweepJSON(t, exitFail, "-bug", "fifo-overlap", "-seeds", "300", "-seed", "1", "-max-failures", "2", "-shrink=false", "-workers", "1")
	s4 := sweepJSON(t, exitFail, "-bug", "fifo-overlap", "-seeds", "300", "-seed", "1", "-max-failures", "2", "-shrink=false", "-workers", "4")
	if s1.Seeds != s4.Seeds || s1.Events != s4.Events || !s1.StoppedEarly || len(s1.Failures) != 2 {
		t.Errorf("early stop differs: %d seeds/%d events vs %d/%d (stopped %v, %d failures)",
			s1.Seeds, s1.Events, s4.Seeds, s4.Events, s1.StoppedEarly, len(s1.Failures))
	}
}

func TestShardsPartitionTheSweep(t *testing.T) {
	base := []string{"-bug", "fifo-overlap", "-seeds", "200", "-seed", "5", "-max-failures", "0", "-shrink=false"}
	whole := sweepJSON(t, exitFail, base...)
	var merged runJSON
	for _, shard := range []string{"0/3", "1/3", "2/3"} {
		j := sweepJSON(t, -1, append(base, "-shard", shard)...)
		merged.Seeds += j.Seeds
		merged.Passed += j.Passed
		merged.Failed += j.Failed
		merged.Steps += j.Steps
		merged.Events += j.Events
		merged.Failures = append(merged.Failures, j.Failures...)
	}
	slices.SortFunc(merged.Failures, func(a, b failureJSON) int { return int(a.Seed) - int(b.Seed) })
	if merged.Seeds != whole.Seeds || merged.Passed != whole.Passed || merged.Failed != whole.Failed ||
		merged.Steps != whole.Steps || merged.Events != whole.Events {
		t.Errorf("merged shards %+v\nwhole %+v", comparable(merged), comparable(whole))
	}
	if !slices.Equal(merged.Failures, whole.Failures) {
		t.Errorf("merged failures %v, whole %v", merged.Failures, whole.Failures)
	}
}

func TestShardSeeds(t *testing.T) {
	for _, tc := range []struct {
		count, i, n uint64
		want        []uint64
	}{
		{10, 0, 3, []uint64{100, 103, 106, 109}},
		{10, 2, 3, []uint64{102, 105, 108}},
		{2, 2, 3, nil},
		{5, 0, 1, []uint64{100, 101, 102, 103, 104}},
	} {
		sp := sweepSpec{first: 100, count: tc.count, shard: shardFlag{tc.i, tc.n}}
		var got []uint64
		for k := range sp.seeds() {
			got = append(got, sp.seedAt(k))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("count %d shard %d/%d: seeds %v, want %v", tc.count, tc.i, tc.n, got, tc.want)
		}
	}
}

func TestCheckDeterminismPasses(t *testing.T) {
	j := sweepJSON(t, exitOK, "-seeds", "40", "-seed", "3", "-check-determinism")
	if j.Passed != 40 {
		t.Errorf("passed %d of 40", j.Passed)
	}
}

func TestReplaySeedPrintsTheSameHashTwice(t *testing.T) {
	_, a, _ := syncsim(t, "replay", "-seed", "7")
	code, b, errs := syncsim(t, "replay", "-seed", "7")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if a != b {
		t.Error("two replays of seed 7 print different traces")
	}
	if !regexp.MustCompile(`^trace-hash [0-9a-f]{64}\b`).MatchString(lastLine(b)) {
		t.Errorf("last line %q", lastLine(b))
	}
	code, _, errs = syncsim(t, "replay", "-seed", firstFailingSeed(t, "single-alarm"), "-bug", "single-alarm")
	if code != exitFail || !regexp.MustCompile(`property [a-z-]+ violated`).MatchString(errs) {
		t.Errorf("replay of a failing seed: exit %d, stderr %q", code, errs)
	}
}

// formatCase writes s as a scenario file with expected block want.
func formatCase(t *testing.T, s scenarios.Scenario, want string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "case.txt")
	text := scenarios.Format(s)
	if want != "" {
		text += "----\n" + want
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReplayFileExpectation(t *testing.T) {
	s := scenarios.FromSeed(11, scenarios.DefaultConfig)
	s.Config.Steps = len(s.Ops)
	r, err := scenarios.Run(s, scenarios.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	good := formatCase(t, s, scenarios.Observe(r))
	if code, _, errs := syncsim(t, "replay", good); code != exitOK {
		t.Errorf("replay of a met expectation: exit %d, %s", code, errs)
	}
	bad := formatCase(t, s, "ok\ntrace-hash 0000\n")
	code, out, errs := syncsim(t, "replay", bad)
	if code != exitFail || !strings.Contains(errs, "expectation not met (-want +got)") {
		t.Errorf("replay of an unmet expectation: exit %d, stderr %q", code, errs)
	}
	if !strings.HasPrefix(lastLine(out), "trace-hash "+r.Hash) {
		t.Errorf("last line %q", lastLine(out))
	}
}

func TestReplayBrokenFileNamesTheLine(t *testing.T) {
	s := scenarios.FromSeed(1, scenarios.DefaultConfig)
	text := scenarios.Format(s)
	lines := strings.Split(text, "\n")
	lines[3] = "frobnicate b0"
	path := filepath.Join(t.TempDir(), "broken.txt")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)
	wantUsageError(t, path+":4", "replay", path)
}

func TestShrinkWritesAReplayableFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "small.txt")
	code, stdout, errs := syncsim(t, "shrink", "-seed", firstFailingSeed(t, "single-alarm"), "-bug", "single-alarm", "-o", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !regexp.MustCompile(`\d+ -> \d+ steps in [0-9.]+s`).MatchString(stdout) {
		t.Errorf("no steps before/after and time: %q", stdout)
	}
	if code, _, errs := syncsim(t, "replay", out); code != exitOK {
		t.Errorf("replay of the shrunk file: exit %d: %s", code, errs)
	}
	// A FILE argument may come before its flags.
	out2 := filepath.Join(t.TempDir(), "again.txt")
	if code, _, errs := syncsim(t, "shrink", out, "-o", out2, "-json"); code != exitOK {
		t.Errorf("shrink FILE -o OUT: exit %d: %s", code, errs)
	}
	// Each file's Replay comment names the corpus test it will be as that
	// file: never the input's name nor a generated one.
	for file, test := range map[string]string{out: "small", out2: "again"} {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		want := "# Replay: go test ./scenarios -run 'TestCorpus/" + test + "$'"
		if got := regexp.MustCompile(`(?m)^# Replay: .*`).FindString(string(text)); !strings.HasPrefix(got, want) {
			t.Errorf("%s: Replay comment %q, want %q", filepath.Base(file), got, want)
		}
	}
	clean := formatCase(t, scenarios.FromSeed(1, scenarios.DefaultConfig), "")
	if code, _, errs := syncsim(t, "shrink", clean); code != exitUsage || !strings.Contains(errs, "nothing to shrink") {
		t.Errorf("shrink of a passing scenario: exit %d, %q", code, errs)
	}
}

func TestHuntFindsABug(t *testing.T) {
	code, out, errs := syncsim(t, "hunt", "-bug", "single-alarm", "-seeds", "100", "-json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var j huntJSON
	decodeOne(t, out, &j)
	if len(j.Bugs) != 1 || !j.Bugs[0].Found || j.Bugs[0].SeedsToFirstFailure == 0 || j.Bugs[0].StepsAfter == 0 {
		t.Errorf("hunt %+v", j)
	}
	// A budget too small to find it exits 1.
	if code, _, _ := syncsim(t, "hunt", "-bug", "no-widen", "-seeds", "1"); code != exitFail {
		t.Errorf("hunt with one seed for no-widen: exit %d, want 1", code)
	}
}

// TestHuntWindows: -windows K hunts K disjoint windows from -seed and
// reports, per bug, every window's seeds to the first failure, their median
// and worst, and the windows missed; without -seed the start is random and
// printed.
func TestHuntWindows(t *testing.T) {
	code, out, errs := syncsim(t, "hunt", "-bug", "single-alarm", "-seeds", "50", "-windows", "3", "-seed", "1000", "-json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var j huntJSON
	decodeOne(t, out, &j)
	b := j.Bugs[0]
	if j.Windows != 3 || j.FirstSeed != 1000 || len(b.WindowSeeds) != 3 || b.WindowsMissed != 0 || !b.Found {
		t.Fatalf("hunt %+v", j)
	}
	sorted := slices.Sorted(slices.Values(b.WindowSeeds))
	if b.MedianSeeds != sorted[1] || b.WorstSeeds != sorted[2] {
		t.Errorf("median %d worst %d of %v", b.MedianSeeds, b.WorstSeeds, b.WindowSeeds)
	}
	// Window 2 starts at 1000+2*50: hunting it alone from there agrees.
	_, out2, _ := syncsim(t, "hunt", "-bug", "single-alarm", "-seeds", "50", "-seed", "1100", "-json")
	var one huntJSON
	decodeOne(t, out2, &one)
	if one.Bugs[0].SeedsToFirstFailure != b.WindowSeeds[2] {
		t.Errorf("window 3 found it after %d seeds, a hunt from its start after %d", b.WindowSeeds[2], one.Bugs[0].SeedsToFirstFailure)
	}
	// A window too small to find no-widen is counted as missed (seeds 3
	// and 4 do not find it; seed 2 does).
	code, out, _ = syncsim(t, "hunt", "-bug", "no-widen", "-seeds", "1", "-windows", "2", "-seed", "3", "-json")
	decodeOne(t, out, &j)
	if code != exitFail || j.Bugs[0].WindowsMissed != 2 || j.Bugs[0].WorstSeeds != 2 {
		t.Errorf("exit %d, %+v", code, j.Bugs[0])
	}
	_, text, _ := syncsim(t, "hunt", "-bug", "single-alarm", "-seeds", "20", "-windows", "2")
	if !strings.Contains(text, "random seed") || !strings.Contains(text, "repeat with -seed") {
		t.Errorf("a hunt without -seed does not print its random start:\n%s", text)
	}
}

// TestReplayRecordsSchedules: replay -record writes a file whose groups
// carry the schedules they ran under, and that file replays the same trace.
func TestReplayRecordsSchedules(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "rec.txt")
	code, out, errs := syncsim(t, "replay", "-seed", "6", "-json", "-record", rec)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var a replayJSON
	decodeOne(t, out, &a)
	raw, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "\n  schedule ") {
		t.Fatalf("no schedule recorded:\n%s", raw)
	}
	_, out, _ = syncsim(t, "replay", rec, "-json")
	var b replayJSON
	decodeOne(t, out, &b)
	if a.Cases[0].TraceHash != b.Cases[0].TraceHash {
		t.Errorf("the recorded file replays to %s, the seed to %s", b.Cases[0].TraceHash, a.Cases[0].TraceHash)
	}
}

func TestBugsListsTheCatalogue(t *testing.T) {
	code, out, _ := syncsim(t, "bugs")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var want []string
	for _, b := range scenarios.Bugs {
		want = append(want, b.Name+"\t"+b.Class)
	}
	if got := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); !slices.Equal(got, want) {
		t.Errorf("bugs printed\n%q\nwant\n%q", got, want)
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"help", "run"}, {"run", "-h"}, {"replay", "-h"}, {"hunt", "-h"}} {
		code, out, errs := syncsim(t, args...)
		if code != exitOK || out == "" || errs != "" {
			t.Errorf("syncsim %s: exit %d, stdout %d bytes, stderr %q", strings.Join(args, " "), code, len(out), errs)
		}
	}
	_, out, _ := syncsim(t, "help", "run")
	for _, f := range []string{"-seeds", "-seed", "-shard", "-check-determinism", "-save", "-json", "-max-failures", "-workers"} {
		if !strings.Contains(out, "  "+f+" ") && !strings.Contains(out, "  "+f+"\n") {
			t.Errorf("help run lacks %s", f)
		}
	}
}
