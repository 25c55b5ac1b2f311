package oracle

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
)

// An intent-store call the store failed by itself, and a failure the
// driver saw elsewhere, are store-error; an injected failure is not.
func TestStoreErrorChecker(t *testing.T) {
	var c StoreErrorChecker
	c.Begin(history.Setup{}, nil)
	for _, tc := range []struct {
		name string
		e    history.Event
		want string // "" for none, else a part of the detail
	}{
		{"injected", history.Event{Kind: history.StoreCall, Store: &faults.StoreCall{Seq: 3, Actor: "#1.exec.b0", Op: faults.StoreOpGet, Backend: "b0", Err: "injected", Fault: faults.StoreGet}}, ""},
		{"by itself", history.Event{Kind: history.StoreCall, Store: &faults.StoreCall{Seq: 3, Actor: "#1.exec.b0", Op: faults.StoreOpGet, Backend: "b0", Err: "no rows", Uninjected: true}},
			`intent store get b0 (by #1.exec.b0, call #3) failed, not injected by the harness: "no rows"`},
		{"the host's own list", history.Event{Kind: history.StoreFailed, Failure: &history.StoreFailure{Store: "intent store", Op: "list", Err: "closed"}},
			`intent store list (by host) failed`},
		{"the workspace's local call", history.Event{Kind: history.StoreFailed, Actor: "#2.retry.b1", Failure: &history.StoreFailure{Store: "local store", Op: "files", Backend: "b1", Err: "x"}},
			`local store files b1 (by #2.retry.b1)`},
	} {
		var rep recorder
		e := tc.e
		c.Observe(&e, &rep)
		switch {
		case tc.want == "" && len(rep.violations) > 0:
			t.Errorf("%s: expected nothing, got %v", tc.name, rep.violations)
		case tc.want != "" && (len(rep.violations) != 1 || !strings.HasPrefix(rep.violations[0], "store-error: ") || !strings.Contains(rep.violations[0], tc.want)):
			t.Errorf("%s: expected store-error with %q, got %v", tc.name, tc.want, rep.violations)
		}
	}
}
