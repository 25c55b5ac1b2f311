package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/syncsim/syncsim/scenarios/benchrun"
)

// `syncsim bench -benchfmt` prints the rounds in the Go benchmark format
// (the format `go test -bench` prints and benchstat reads; its grammar is
// the Go proposal "Standard benchmark data format", design 14313): a few
// "key: value" configuration lines, then one line per arm and round,
//
//	BenchmarkSweep/memory-2  1000  985310 ns/op  1014.9 scenarios/s  1234567 B/op  9876 allocs/op
//
// so that `benchstat old.txt new.txt` compares two builds with every round
// as a sample. The count is the round's scenarios; ns/op is CPU time per
// scenario (the process's, every thread: see the cpu-time line), not wall
// time as in `go test`; scenarios/s is its inverse, per core; B/op and
// allocs/op are the whole process's heap allocations per scenario.

// benchfmtPkg is the pkg configuration line: the command that measured.
const benchfmtPkg = "github.com/syncsim/syncsim/cmd/syncsim"

// writeBenchfmt prints r's rounds as Go benchmark lines, round by round in
// the order they ran.
func writeBenchfmt(w io.Writer, r benchrun.Report, m machineJSON) {
	config := []struct{ key, value string }{
		{"goos", m.GOOS},
		{"goarch", m.GOARCH},
		{"pkg", benchfmtPkg},
		{"cpu", m.CPUModel},
		{"cpu-time", r.CPUTimeSource},
		{"rounds", fmt.Sprint(r.Rounds)},
		{"seeds", fmt.Sprintf("%d..%d", r.FirstSeed, r.FirstSeed+uint64(r.RoundSeeds)-1)},
	}
	for _, c := range config {
		if c.value != "" {
			fmt.Fprintf(w, "%s: %s\n", c.key, oneLine(c.value))
		}
	}
	for round := range r.Rounds {
		for _, a := range r.Arms {
			if round < len(a.Rounds) {
				fmt.Fprintln(w, benchfmtLine(a, a.Rounds[round], m.GOMAXPROCS))
			}
		}
	}
}

// benchfmtLine is one arm's round as a benchmark result line. The name
// ends in -GOMAXPROCS unless it is 1, as `go test` names them.
func benchfmtLine(a benchrun.Arm, rd benchrun.Round, procs int) string {
	var b strings.Builder
	b.WriteString("BenchmarkSweep/" + a.Name)
	if procs != 1 {
		fmt.Fprintf(&b, "-%d", procs)
	}
	n := max(a.Seeds, 1)
	nsPerOp := float64(rd.CPU.Nanoseconds()) / float64(n)
	perSec := 0.0
	if rd.CPU > 0 {
		perSec = float64(n) / rd.CPU.Seconds()
	}
	fmt.Fprintf(&b, "\t%8d\t%12.0f ns/op\t%10.1f scenarios/s\t%10d B/op\t%8d allocs/op",
		n, nsPerOp, perSec, rd.AllocBytes/uint64(n), rd.AllocObjects/uint64(n))
	return b.String()
}
