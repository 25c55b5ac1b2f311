package scenarios

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzParse feeds Parse arbitrary text. Parse must never panic (a panic
// recovered inside it comes back as a "datadriven failed" error, which
// fails here too), every error must be a *ParseError naming a position,
// and whatever it accepts must round-trip: Parse(Format(s)) == s. The seed
// corpus is in testdata/fuzz/FuzzParse; run with
//
//	go test ./scenarios -run '^$' -fuzz FuzzParse -fuzztime 30s
func FuzzParse(f *testing.F) {
	f.Add(validRun + "profile off\nexec b0 wait writes=1\n")
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
	})
}
