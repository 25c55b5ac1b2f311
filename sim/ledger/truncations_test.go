package ledger

import (
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
)

func TestTruncationWatch(t *testing.T) {
	fetch := func(after, current int64) faults.Call {
		return faults.Call{Op: faults.OpFetch, After: scheduler.Cursor{Rev: after}, CurrentCursor: scheduler.Cursor{Rev: current}}
	}
	for _, tc := range []struct {
		name    string
		fetches []faults.Call
		blind   bool
	}{
		{"seen, then reset took effect", []faults.Call{fetch(3, 2), fetch(0, 2)}, false},
		{"host behind the truncated log", []faults.Call{fetch(1, 3)}, false},
		{"host at the truncated log's end", []faults.Call{fetch(2, 3)}, false},
		{"outrun before the host fetched", []faults.Call{fetch(3, 3)}, true},
		{"seen, reset lost, then outrun", []faults.Call{fetch(3, 2), fetch(3, 3)}, true},
	} {
		var w Truncations
		w.Truncated(0, 2)
		w.Note(0, tc.fetches)
		if w.IsBlind(0) != tc.blind {
			t.Errorf("%s: blind=%t, want %t", tc.name, w.IsBlind(0), tc.blind)
		}
	}
}
