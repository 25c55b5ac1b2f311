package scenarios

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// FuzzParse feeds Parse arbitrary text. Parse must never panic (a panic
// recovered inside it comes back as a "datadriven failed" error, which
// fails here too), every error must be a *ParseError naming a position,
// and whatever it accepts must round-trip: Parse(Format(s)) == s. What
// also passes Validate (as syncsim replay requires) is run, cut to its
// first fuzzRunSteps steps: the run must not panic, must not hang (the
// watchdog bounds it) and must not report an actor's panic (no-panic) —
// any other violation is fine, since the text may plant a bug or inject
// faults. The seed corpus is in testdata/fuzz/FuzzParse; run with
//
//	go test ./scenarios -run '^$' -fuzz FuzzParse -fuzztime 30s
func FuzzParse(f *testing.F) {
	f.Add(validRun + "profile off\nexec b0 wait writes=1\n")
	f.Add(validRun + "profile off\nadvance 2562047h\n") // invalid: past the clock
	// Generated scenarios give the fuzzer runnable material to mutate.
	for seed := uint64(1); seed <= 4; seed++ {
		c := DefaultConfig
		c.Steps = fuzzRunSteps
		f.Add(Format(FromSeed(seed, c)))
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := Parse(text)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || !strings.HasPrefix(pe.Pos, stringSource) {
				t.Fatalf("error without a position: %v", err)
			}
			if strings.Contains(err.Error(), "datadriven failed") {
				t.Fatalf("Parse recovered a panic: %v", err)
			}
			return
		}
		out := Format(s)
		again, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse accepted\n%s\nbut not its own Format:\n%s\n%v", text, out, err)
		}
		if d := cmp.Diff(s, again, scenarioCmp...); d != "" {
			t.Fatalf("round trip differs (-first +second):\n%s", d)
		}
		runParsed(t, s)
	})
}

// fuzzRunSteps bounds the steps of a parsed scenario FuzzParse runs, and
// fuzzWatchdog how long a run may stall before it is a hang.
const (
	fuzzRunSteps = 12
	fuzzWatchdog = 5 * time.Second
)

// runParsed runs the first fuzzRunSteps steps of s when it is valid.
func runParsed(t *testing.T, s Scenario) {
	t.Helper()
	if s.Validate() != nil {
		return // syncsim rejects it as an input error (exit 2) before any run
	}
	if b, ok := BugByName(s.Config.Bug); ok && b.Hangs() {
		return // hangs by design: each run would wait out the watchdog
	}
	var ops []Op
	for _, o := range s.Ops {
		if Steps(ops)+Steps([]Op{o}) > fuzzRunSteps {
			break
		}
		ops = append(ops, o)
	}
	s.Ops = ops
	r, err := Run(s, RunOptions{Watchdog: fuzzWatchdog, TraceKeep: 64})
	if err != nil {
		if strings.Contains(err.Error(), "panic") {
			t.Fatalf("run of\n%s\nfailed with a panic: %v", Format(s), err)
		}
		return // a setup error is reported as an error, not a crash
	}
	if v := r.Violation; v != nil && (v.Property == "no-panic" || v.Property == "hang") {
		t.Fatalf("run of\n%s\n%s: %s", Format(s), v.Property, v.Detail)
	}
}
