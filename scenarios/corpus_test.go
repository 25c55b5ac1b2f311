package scenarios

import (
	"os"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestCorpus replays every scenario file under testdata/corpus and compares
// Observe's output with the file's expected block. Regenerate expectations
// with
//
//	go test ./scenarios -run TestCorpus -rewrite
//
// and review the diff: a changed line is a changed behaviour. A case that
// expects a violation must still produce that very property; a case under
// a planted bug must expect one, and is also replayed with bug=none, which
// must pass.
func TestCorpus(t *testing.T) {
	datadriven.Walk(t, CorpusDir, func(t *testing.T, path string) {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(raw), "\n")
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			s, err := parseTestData(td, td.Pos, lines)
			if err != nil {
				t.Fatal(err)
			}
			want, expectsViolation := ExpectedProperty(td.Expected)
			r, err := Run(s, RunOptions{Watchdog: watchdogFor(expectsViolation && want == "hang")})
			if err != nil {
				td.Fatalf(t, "run: %v", err)
			}
			// A file under a planted bug is there to show the bug found:
			// it must expect a violation, so that a change that makes it
			// pass (a schedule gone stale, say) cannot be rewritten in
			// unnoticed.
			if !expectsViolation && s.Config.Bug != "" && !td.Rewrite {
				td.Fatalf(t, "a file under planted bug %s must expect a violation; it expects a pass", s.Config.Bug)
			}
			if s.Config.Bug != "" && td.Rewrite && r.Violation == nil {
				td.Fatalf(t, "rewrite: the file runs under planted bug %s but every property held", s.Config.Bug)
			}
			if expectsViolation && !td.Rewrite {
				if r.Violation == nil || r.Violation.Property != want {
					td.Fatalf(t, "the file expects violation %s, the replay gave %v", want, r.Violation)
				}
			}
			if s.Config.Bug != "" {
				fixed := s
				fixed.Config.Bug = ""
				rf, err := Run(fixed, RunOptions{Watchdog: watchdogFor(false)})
				if err != nil {
					td.Fatalf(t, "run with bug=none: %v", err)
				}
				if rf.Violation != nil {
					td.Fatalf(t, "with bug=none the same scenario must pass, got %v\n%s", rf.Violation, Observe(rf))
				}
			}
			return Observe(r)
		})
	})
}
