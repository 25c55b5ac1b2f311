package oracle

import (
	"testing"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// A retry's stream is read up to where the budget stops it, and a close
// before its end needs the entry, byte or wall-time budget to explain it.
func TestBatchBudgetChecker(t *testing.T) {
	const W = time.Second
	retry := func(calls []faults.Call) []history.Event {
		return []history.Event{{Kind: history.OpReturned, Actor: "#1.retry.b0", Op: &history.Op{Kind: "retry", Calls: calls, Begun: wallT0}}}
	}
	setup := func(entries int, wall time.Duration) history.Setup {
		return history.Setup{Backends: []string{"b0"}, Budget: workspace.Budget{MaxEntries: entries, MaxBytes: 1 << 20, MaxWallTime: wall}}
	}
	closedAfter := func(n int, closeAt time.Duration) []faults.Call {
		reads := make([]time.Duration, n)
		return wallStream(0, reads, closeAt)
	}
	for _, tc := range []struct {
		name  string
		setup history.Setup
		calls []faults.Call
		want  string
	}{
		{"stopped at the entry budget", setup(2, 0), closedAfter(2, 0), ""},
		{"read past the entry budget", setup(2, 0), closedAfter(3, 0), "batch-budget: #1.retry.b0: read 3 entries of fetch #1, 1 past where the budget {entries 2, bytes 1048576} stops it"},
		{"stopped under every budget", setup(8, 0), closedAfter(1, 0), "batch-budget: #1.retry.b0: stopped fetch #1 after 1 entries, before its end and under the budget"},
		{"stopped where the wall budget may have run out", setup(8, W), closedAfter(1, W), ""},
		{"read again past the wall budget", setup(8, W), wallStream(0, []time.Duration{W, W}, W), "batch-budget: #1.retry.b0: read 2 of the stream of fetch #1 came at least 1s after the batch started"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i := range tc.calls {
				tc.calls[i].Actor = "#1.retry.b0"
			}
			expectFirst(t, &BatchBudgetChecker{}, tc.setup, retry(tc.calls), tc.want)
		})
	}
}
