package oracle

import (
	"testing"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
)

var wallT0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// wallStream is a retry's fetch at fetchAt and reads of its stream at
// the given times (each serving an entry), then a close at closeAt.
func wallStream(fetchAt time.Duration, reads []time.Duration, closeAt time.Duration) []faults.Call {
	calls := []faults.Call{{Seq: 1, Op: faults.OpFetch, Stream: 1, At: wallT0.Add(fetchAt),
		After: scheduler.At(0), CurrentCursor: scheduler.At(9)}}
	for i, r := range reads {
		calls = append(calls, faults.Call{Seq: 2 + i, Op: faults.OpStreamNext, Stream: 1, At: wallT0.Add(r),
			Entry: scheduler.Ptr(scheduler.At(int64(1 + i))), Entries: i + 1})
	}
	return append(calls, faults.Call{Seq: 2 + len(reads), Op: faults.OpStreamClose, Stream: 1, At: wallT0.Add(closeAt)})
}

// TestWallOverRead: a read is one too many only when the read before it
// came at least the budget after the fetch (the check before it must have
// found the budget spent); the first read never is, whatever time the
// actor started, and a run without a wall budget is never held to one.
func TestWallOverRead(t *testing.T) {
	const W = time.Second
	for _, tc := range []struct {
		name  string
		calls []faults.Call
		limit time.Duration
		read  int // 0: none over
	}{
		{"no time passes", wallStream(0, []time.Duration{0, 0, 0}, 0), W, 0},
		{"the budget spent by the first read", wallStream(0, []time.Duration{W, W, W}, W), W, 2},
		{"exactly the budget: >= stops", wallStream(0, []time.Duration{0, W, 2 * W}, 2*W), W, 3},
		{"just under the budget", wallStream(0, []time.Duration{0, W - 1, W - 1}, W), W, 0},
		{"a late fetch is no read", wallStream(5*W, []time.Duration{5 * W, 5 * W}, 5*W), W, 0},
		{"no budget", wallStream(0, []time.Duration{W, 2 * W, 3 * W}, 3*W), 0, 0},
	} {
		o, over := wallOverRead(tc.calls, wallBudget{limit: tc.limit, begun: wallT0})
		if got := map[bool]int{true: o.read}[over]; got != tc.read {
			t.Errorf("%s: expected read %d over the budget (0: none), got %d", tc.name, tc.read, got)
		}
	}
}
