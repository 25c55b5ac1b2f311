package oracle

import (
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
)

// TestDisposeOnceRule: every stream an operation's own successful fetch
// opened is closed exactly once; a failed fetch opened none.
func TestDisposeOnceRule(t *testing.T) {
	fetch := func(stream int) faults.Call { return faults.Call{Op: faults.OpFetch, Stream: stream} }
	closeOf := func(stream int) faults.Call { return faults.Call{Op: faults.OpStreamClose, Stream: stream} }
	var c DisposeOnceChecker
	c.Begin(history.Setup{Backends: []string{"b0"}}, nil)
	for _, tc := range []struct {
		name  string
		calls []faults.Call
		ok    bool
	}{
		{"closed once", []faults.Call{fetch(2), {Op: faults.OpStreamNext, Stream: 2}, closeOf(2)}, true},
		{"divergence retry", []faults.Call{fetch(4), closeOf(4), fetch(5), closeOf(5)}, true},
		{"closed twice", []faults.Call{fetch(4), closeOf(4), fetch(5), closeOf(5), closeOf(4)}, false},
		{"never closed", []faults.Call{fetch(2), {Op: faults.OpStreamNext, Stream: 2, EOF: true}}, false},
		{"failed fetch", []faults.Call{{Op: faults.OpFetch, Err: "socket hang up"}}, true},
		{"no fetch", []faults.Call{{Op: faults.OpConnect}}, true},
	} {
		var rep recorder
		c.Observe(&history.Event{Kind: history.OpReturned, Actor: "#1.pull.b0", Op: &history.Op{Kind: "pull", Calls: tc.calls}}, &rep)
		if ok := len(rep.violations) == 0; ok != tc.ok {
			t.Errorf("%s: expected ok %t, got %v", tc.name, tc.ok, rep.violations)
		}
		for _, v := range rep.violations {
			if v[:len("dispose-once:")] != "dispose-once:" {
				t.Errorf("%s: expected property dispose-once, got %s", tc.name, v)
			}
		}
	}
}
