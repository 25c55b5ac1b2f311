package main

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/syncsim/syncsim/scenarios/benchrun"
)

// benchResult is one benchmark result line of the Go benchmark format.
type benchResult struct {
	name       string
	iterations int
	values     map[string]float64 // by unit
}

// parseBenchfmt reads out as the Go benchmark format (design 14313, what
// benchstat reads): every line is blank, a configuration line ("key:
// value", the key starting with a lower-case letter and holding no space
// or upper-case letter) or a result line ("Benchmark" then a character
// that is not a lower-case letter; the iteration count; then value-unit
// pairs, the values numbers). A line benchstat would skip or reject fails
// the test, so that nothing printed is lost on the way to benchstat.
func parseBenchfmt(t *testing.T, out string) (config map[string]string, results []benchResult) {
	t.Helper()
	config = map[string]string{}
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		where := fmt.Sprintf("line %d %q", i+1, line)
		switch {
		case strings.TrimSpace(line) == "":
		case strings.HasPrefix(line, "Benchmark"):
			if rest := []rune(strings.TrimPrefix(line, "Benchmark")); len(rest) > 0 && unicode.IsLower(rest[0]) {
				t.Fatalf("%s: a lower-case letter after \"Benchmark\" makes it no benchmark name", where)
			}
			f := strings.Fields(line)
			if len(f) < 4 || len(f)%2 != 0 {
				t.Fatalf("%s: want a name, an iteration count and value-unit pairs", where)
			}
			n, err := strconv.Atoi(f[1])
			if err != nil || n <= 0 {
				t.Fatalf("%s: iteration count %q is not a positive whole number", where, f[1])
			}
			r := benchResult{name: f[0], iterations: n, values: map[string]float64{}}
			for k := 2; k < len(f); k += 2 {
				v, err := strconv.ParseFloat(f[k], 64)
				if err != nil {
					t.Fatalf("%s: value %q is not a number", where, f[k])
				}
				if _, dup := r.values[f[k+1]]; dup {
					t.Fatalf("%s: unit %q twice", where, f[k+1])
				}
				r.values[f[k+1]] = v
			}
			results = append(results, r)
		default:
			key, value, ok := strings.Cut(line, ": ")
			if !ok || key == "" || !unicode.IsLower([]rune(key)[0]) || strings.IndexFunc(key, func(c rune) bool { return unicode.IsSpace(c) || unicode.IsUpper(c) }) >= 0 {
				t.Fatalf("%s: neither a configuration line nor a benchmark result", where)
			}
			config[key] = value
		}
	}
	return config, results
}

// TestBenchfmtLines: the lines carry each round's figures exactly, round
// by round in the order the arms ran, named as go test names them.
func TestBenchfmtLines(t *testing.T) {
	round := func(ms int, allocs uint64) benchrun.Round {
		return benchrun.Round{CPU: time.Duration(ms) * time.Millisecond, AllocBytes: 1000 * allocs, AllocObjects: allocs}
	}
	r := benchrun.Report{Rounds: 2, RoundSeeds: 100, FirstSeed: 7, CPUTimeSource: "getrusage", Arms: []benchrun.Arm{
		{Name: benchrun.ArmDefault, Seeds: 100, Rounds: []benchrun.Round{round(250, 300), round(200, 300)}},
		{Name: benchrun.ArmMemory, Seeds: 100, Rounds: []benchrun.Round{round(80, 200), round(100, 200)}},
	}}
	for _, c := range []struct {
		procs  int
		suffix string
	}{{1, ""}, {2, "-2"}} {
		var out bytes.Buffer
		writeBenchfmt(&out, r, machineJSON{GOOS: "linux", GOARCH: "amd64", GOMAXPROCS: c.procs, CPUModel: "Some CPU @ 2.0GHz"})
		config, results := parseBenchfmt(t, out.String())
		for k, want := range map[string]string{"goos": "linux", "goarch": "amd64", "cpu": "Some CPU @ 2.0GHz", "cpu-time": "getrusage", "rounds": "2", "seeds": "7..106", "pkg": benchfmtPkg} {
			if config[k] != want {
				t.Errorf("GOMAXPROCS %d: config %s = %q, want %q", c.procs, k, config[k], want)
			}
		}
		want := []struct {
			name              string
			nsPerOp, perSec   float64
			bytesOp, allocsOp float64
		}{
			{"BenchmarkSweep/default", 2_500_000, 400, 3000, 3},
			{"BenchmarkSweep/memory", 800_000, 1250, 2000, 2},
			{"BenchmarkSweep/default", 2_000_000, 500, 3000, 3},
			{"BenchmarkSweep/memory", 1_000_000, 1000, 2000, 2},
		}
		if len(results) != len(want) {
			t.Fatalf("GOMAXPROCS %d: %d result lines, want %d:\n%s", c.procs, len(results), len(want), out.String())
		}
		for i, w := range want {
			g := results[i]
			if g.name != w.name+c.suffix || g.iterations != 100 ||
				g.values["ns/op"] != w.nsPerOp || math.Abs(g.values["scenarios/s"]-w.perSec) > 0.05 ||
				g.values["B/op"] != w.bytesOp || g.values["allocs/op"] != w.allocsOp {
				t.Errorf("GOMAXPROCS %d: line %d is %+v, want %s%s: 100 iterations, %+v", c.procs, i+1, g, w.name, c.suffix, w)
			}
		}
	}
}

// TestBenchfmtRun runs a tiny bench with -benchfmt: it prints only the
// format, one line per arm and round, every default arm present.
func TestBenchfmtRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every arm for 5 rounds")
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"bench", "-benchfmt", "-rounds", "5", "-round-seeds", "4", "-seed", "11"}, &out, &errOut); code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut.String())
	}
	config, results := parseBenchfmt(t, out.String())
	if config["rounds"] != "5" || config["seeds"] != "11..14" || config["cpu-time"] == "" {
		t.Errorf("config %v, want rounds 5, seeds 11..14 and the CPU time source", config)
	}
	count := map[string]int{}
	for _, r := range results {
		name, _, _ := strings.Cut(strings.TrimPrefix(r.name, "BenchmarkSweep/"), "-")
		count[name]++
		if r.iterations != 4 || r.values["ns/op"] <= 0 || r.values["scenarios/s"] <= 0 {
			t.Errorf("%+v: want 4 scenarios, a positive ns/op and scenarios/s", r)
		}
	}
	for _, arm := range []string{benchrun.ArmDefault, benchrun.ArmMemory, benchrun.ArmNone, benchrun.ArmDirect, benchrun.ArmDouble} {
		if count[arm] != 5 {
			t.Errorf("arm %s: %d lines, want one per round (5)", arm, count[arm])
		}
	}
}

// TestBenchFlagErrors: every unusable flag is exit 2 with one line on
// stderr naming it.
func TestBenchFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args  []string
		names string
	}{
		{[]string{"-nosuch"}, "-nosuch"},
		{[]string{"-rounds", "4"}, "-rounds"},
		{[]string{"-rounds", "101"}, "-rounds"},
		{[]string{"-round-seeds", "-1"}, "-round-seeds"},
		{[]string{"-seeds", "-1"}, "-seeds"},
		{[]string{"-benchfmt", "-json"}, "-json"},
		{[]string{"-benchfmt", "-strategies"}, "-strategies"},
		{[]string{"-benchfmt", "-by-property"}, "-by-property"},
		{[]string{"-strategies", "-by-property"}, "-by-property"},
	} {
		var out, errOut bytes.Buffer
		code := run(append([]string{"bench"}, c.args...), &out, &errOut)
		lines := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n")
		if code != exitUsage || len(lines) != 1 || !strings.Contains(lines[0], c.names) {
			t.Errorf("bench %v: exit %d, stderr %q; want exit %d and one line naming %s", c.args, code, errOut.String(), exitUsage, c.names)
		}
	}
}
