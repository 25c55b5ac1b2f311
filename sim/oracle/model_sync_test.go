package oracle

import (
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// TestSkippedRule: a complete retry (one fetch, one entry applied, the
// stream read to its end) reports no skipped path, and Skipped is nil,
// the documented form of none; a path, or an empty non-nil slice, is
// property skipped.
func TestSkippedRule(t *testing.T) {
	const actor = "#1.retry.b0"
	entry := scheduler.Cursor{Rev: 2, Path: "/out/1-a", HasPath: true}
	record := ownCalls(actor,
		faults.Call{Op: faults.OpFetch, Conn: 1, Stream: 1, After: scheduler.Cursor{}, CurrentCursor: scheduler.Cursor{Rev: 2}},
		faults.Call{Op: faults.OpStreamNext, Conn: 1, Stream: 1, Entry: &entry, Entries: 1, EntryBytes: 20},
		faults.Call{Op: faults.OpStreamNext, Conn: 1, Stream: 1, EOF: true})
	for _, tc := range []struct {
		name    string
		skipped []string
		want    string // "" for no violation
	}{
		{"complete retry that skipped a path", []string{"/ro/x"}, "skipped"},
		{"complete retry whose Skipped is empty, not nil", []string{}, "skipped"},
		{"complete retry whose Skipped is nil", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newModelHarness("b0")
			e := opEvent(actor, "retry", record)
			e.Op.Retry = workspace.RetryResult{Status: workspace.RetryComplete, Skipped: tc.skipped}
			if got := m.verdict(t, m.judgeRetryComplete(e)); got != tc.want {
				t.Fatalf("expected %q, got %q (%v)", tc.want, got, m.reports.violations)
			}
		})
	}
}
