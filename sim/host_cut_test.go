package sim

import (
	"testing"
	"unicode/utf16"

	"github.com/syncsim/syncsim/faults"
)

// cutUnits keeps the first n UTF-16 units of s, dropping a pair the cut
// would split (the workspace's rule, written again here).
func cutUnits(s string, n int) string {
	units := 0
	for i, r := range s {
		w := utf16.RuneLen(r)
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}

// TestCutLength: a message that ends inside the planted padding must be
// cut at 512 units (511 before a pair); one cut shorter is a violation,
// and a part the SPEC 5.2 wrapper shortened itself is left alone.
func TestCutLength(t *testing.T) {
	pad := faults.PastCutPadding()
	for _, prefix := range []string{"x: ", "xy: ", "injected transport-connect: "} {
		full := prefix + pad + "password: [REDACTED]"
		good := cutUnits(full, 512)
		short := cutUnits(full, 511)
		if short == good {
			short = cutUnits(full, 510) // 511 was the pair rule's own length: one unit less is wrong
		}
		for _, tc := range []struct {
			text  string
			fires bool
		}{{good, false}, {short, true}, {"Workspace backend \"b0\": pull failed after 1 reconnect retry: initial=a; last=" + cutUnits(prefix+pad, 240), false}} {
			h := newJudgeHost(t, nil)
			units := len(utf16.Encode([]rune(tc.text)))
			v := h.judgeCutLength(finished{actor: "#1.retry.b0", kind: "retry"}, "retry result error", tc.text, units)
			if fired := v != nil; fired != tc.fires {
				t.Errorf("prefix %q, %d units (ends %q): expected a violation %v, got %v", prefix, units, tc.text[max(0, len(tc.text)-12):], tc.fires, v)
			}
			h.Close()
		}
	}
}
