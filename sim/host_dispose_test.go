package sim

import (
	"testing"

	"github.com/syncsim/syncsim/faults"
)

// TestDisposeOnceRule: every stream an operation's own successful fetch
// opened is closed exactly once; a failed fetch opened none.
func TestDisposeOnceRule(t *testing.T) {
	fetch := func(stream int) faults.Call { return faults.Call{Op: faults.OpFetch, Stream: stream} }
	closeOf := func(stream int) faults.Call { return faults.Call{Op: faults.OpStreamClose, Stream: stream} }
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
		h, err := NewHost(Config{Seed: 1, Backends: 1, Profile: faults.Profile{}})
		if err != nil {
			t.Fatal(err)
		}
		v := h.judgeDisposals(finished{actor: "#1.pull.b0", kind: "pull"}, tc.calls)
		if (v == nil) != tc.ok {
			t.Errorf("%s: expected ok %t, got %v", tc.name, tc.ok, v)
		}
		if v != nil && v.Property != "dispose-once" {
			t.Errorf("%s: expected property dispose-once, got %s", tc.name, v.Property)
		}
		h.Close()
	}
}
