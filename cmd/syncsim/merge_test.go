package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// workflowPath is the nightly sharded sweep the README describes.
const workflowPath = repoRoot + "/.github/workflows/nightly.yml"

// nightlyBudget replaces the workflow's seed count in tests; the bug makes
// failures to merge.
const nightlyBudget = "-seeds 60"

// workflowLines returns the workflow's shard list and its sweep and merge
// commands (without "syncsim"), the sweep's output file template and the
// merge's arguments.
func workflowLines(t *testing.T) (shards []string, sweep []string, outFile string, merge []string) {
	t.Helper()
	b, err := os.ReadFile(workflowPath)
	if err != nil {
		t.Fatal(err)
	}
	y := string(b)
	m := regexp.MustCompile(`(?m)^\s+shard: \[([0-9, ]+)\]$`).FindStringSubmatch(y)
	r := regexp.MustCompile(`(?m)^\s+- run: syncsim (run .*) > (.+?) \|\| \[ \$\? -eq 1 \]$`).FindStringSubmatch(y)
	g := regexp.MustCompile(`(?m)^\s+- run: syncsim (merge .*)$`).FindStringSubmatch(y)
	if m == nil || r == nil || g == nil {
		t.Fatalf("%s lacks the shard matrix, the sweep line or the merge line", workflowPath)
	}
	if !strings.Contains(r[1], "-seeds 1000000") {
		t.Fatalf("sweep line %q: the test expects -seeds 1000000 to shrink", r[1])
	}
	for _, s := range strings.Split(m[1], ",") {
		shards = append(shards, strings.TrimSpace(s))
	}
	return shards, strings.Fields(r[1]), r[2], strings.Fields(g[1])
}

// runShards runs the workflow's sweep line for every shard on a small
// budget under bug ("" for none), writing each summary where download-artifact puts it
// (shards/shard-<i>/<file>). It returns the shards directory's parent.
func runShards(t *testing.T, bug string) string {
	t.Helper()
	shards, sweep, outFile, _ := workflowLines(t)
	root := t.TempDir()
	for _, sh := range shards {
		args := strings.Fields(strings.ReplaceAll(strings.ReplaceAll(strings.Join(sweep, " "),
			"${{ matrix.shard }}", sh), "-seeds 1000000", nightlyBudget))
		if bug != "" {
			args = append(args, "-bug", bug)
		}
		args = append(args, "-save", filepath.Join(root, "failures"))
		code, out, errs := syncsim(t, args...)
		if code != exitOK && code != exitFail {
			t.Fatalf("syncsim %s: exit %d: %s", strings.Join(args, " "), code, errs)
		}
		dir := filepath.Join(root, "shards", "shard-"+sh)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		name := strings.ReplaceAll(outFile, "${{ matrix.shard }}", sh)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// mergeArgs expands the workflow's merge line in root, as the shell would.
func mergeArgs(t *testing.T, root string, extra ...string) []string {
	t.Helper()
	_, _, _, merge := workflowLines(t)
	var args []string
	for _, a := range merge {
		if !strings.Contains(a, "*") {
			args = append(args, a)
			continue
		}
		files, _ := filepath.Glob(filepath.Join(root, a))
		if len(files) == 0 {
			t.Fatalf("merge pattern %s matches nothing in %s", a, root)
		}
		args = append(args, files...)
	}
	return append(args, extra...)
}

// The nightly workflow's sweep and merge lines, run as written on a small
// budget, merge to exactly what one unsharded sweep finds.
func TestNightlyWorkflowMerges(t *testing.T) {
	root := runShards(t, "fifo-overlap")
	code, out, errs := syncsim(t, mergeArgs(t, root)...)
	if code != exitFail {
		t.Fatalf("merge: exit %d, want 1 (failures)\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	if l := lastLine(out); !strings.HasPrefix(l, "syncsim: merged 8 shards: 60 seeds (first 1) of 60, ") {
		t.Errorf("merge summary %q", l)
	}
	code, out, _ = syncsim(t, mergeArgs(t, root, "-json")...)
	var m mergeJSON
	decodeOne(t, out, &m)
	whole := sweepJSON(t, exitFail, "-seeds", "60", "-seed", "1", "-bug", "fifo-overlap", "-max-failures", "0", "-shrink=false")
	seeds := func(fs []failureJSON) []uint64 {
		var s []uint64
		for _, f := range fs {
			s = append(s, f.Seed)
		}
		return s
	}
	if code != exitFail || !m.Complete || m.Shards != 8 || m.Seeds != whole.Seeds || m.Passed != whole.Passed ||
		m.Steps != whole.Steps || m.Events != whole.Events || !slices.Equal(seeds(m.Failures), seeds(whole.Failures)) || m.Failed < 1 {
		t.Errorf("merged %+v\nwhole %+v", m, comparable(whole))
	}
}

// The merge refuses shards that are not the disjoint, complete split of
// one sweep, in one line naming the problem.
func TestMergeRejectsABrokenSplit(t *testing.T) {
	root := runShards(t, "fifo-overlap")
	files := mergeArgs(t, root)[1:]
	other := filepath.Join(t.TempDir(), "other.json")
	_, out, _ := syncsim(t, "run", "-json", "-seeds", "60", "-seed", "2", "-shard", "0/8", "-shrink=false")
	os.WriteFile(other, []byte(out), 0o644)
	notJSON := filepath.Join(t.TempDir(), "x.json")
	os.WriteFile(notJSON, []byte("syncsim: 60 seeds\n"), 0o644)
	for _, tc := range []struct {
		culprit string
		args    []string
	}{
		{"shard 7/8 missing", append([]string{"merge"}, files[:7]...)},
		{"given twice", append([]string{"merge", files[0]}, files...)},
		{"not shards of one sweep: first_seed 1 vs 2", append([]string{"merge"}, append(files[1:], other)...)},
		{notJSON, append([]string{"merge", notJSON}, files...)},
		{"no shard summaries", []string{"merge"}},
	} {
		wantUsageError(t, tc.culprit, tc.args...)
	}
}

// A shard that did not run all its seeds leaves the merge incomplete:
// exit 1 and a line naming the shard, even with no failure.
func TestMergeFlagsAnInterruptedShard(t *testing.T) {
	root := runShards(t, "")
	files := mergeArgs(t, root)[1:]
	var j runJSON
	b, _ := os.ReadFile(files[3])
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	j.Seeds, j.Passed, j.Failed, j.Failures, j.Interrupted = 2, 2, 0, nil, true
	b, _ = json.Marshal(j)
	os.WriteFile(files[3], b, 0o644)
	code, out, errs := syncsim(t, append([]string{"merge", "-json"}, files...)...)
	var m mergeJSON
	decodeOne(t, out, &m)
	if code != exitFail || m.Complete || m.Failed != 0 || !strings.Contains(errs, "shard 3/8: ran 2 of 8 seeds (interrupted)") {
		t.Errorf("exit %d, complete %v, stderr %q", code, m.Complete, errs)
	}
}
