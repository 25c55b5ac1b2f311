package oracle

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
)

func TestExpectedPushCount(t *testing.T) {
	const me = "tail.b0"
	push := func(actor string, n int, err string) faults.Call {
		return faults.Call{Actor: actor, Op: faults.OpPush, Changes: n, Err: err}
	}
	for _, tc := range []struct {
		name  string
		calls []faults.Call
		want  int
	}{
		{"batches sum", []faults.Call{push(me, 2, ""), push(me, 2, ""), push(me, 0, "")}, 4},
		{"another actor's pushes do not count", []faults.Call{push("x", 5, ""), push(me, 1, "")}, 1},
		{"a failure restarts the count (the replay resends)", []faults.Call{push(me, 2, ""), push(me, 2, "post-dispatch"), {Actor: me, Op: faults.OpConnect, Conn: 2}, push(me, 2, ""), push(me, 1, "")}, 3},
		{"calls after the last push are not the push's", []faults.Call{push(me, 2, ""), {Actor: me, Op: faults.OpFetch, Err: "refused"}}, 2},
		{"no push", []faults.Call{{Actor: me, Op: faults.OpFetch}}, 0},
	} {
		if got := expectedPushCount(tc.calls, me); got != tc.want {
			t.Errorf("%s: expected count %d, want %d", tc.name, got, tc.want)
		}
	}
}

// records is a Records over fixed calls per backend.
type records [][]faults.Call

func (r records) RuntimeSince(b, mark int) []faults.Call { return r[b][mark:] }

func (r records) StoreSince(int) []faults.StoreCall { return nil }

// The tail's push count is held to the record from the push's start.
func TestPushCountChecker(t *testing.T) {
	push := func(n int) faults.Call { return faults.Call{Actor: "tail.b0", Op: faults.OpPush, Changes: n} }
	rec := records{{push(9), push(2), push(1)}}
	for _, tc := range []struct {
		pushed int
		want   bool
	}{{3, false}, {1, true}, {12, true}} {
		var c PushCountChecker
		c.Begin(history.Setup{Backends: []string{"b0"}}, rec)
		var rep recorder
		c.Observe(&history.Event{Kind: history.TailReturned, Actor: "tail.b0", Backend: 0, Op: &history.Op{Kind: "tail", Pushed: tc.pushed, StepMarks: []int{1}}}, &rep)
		if got := len(rep.violations) > 0; got != tc.want {
			t.Fatalf("pushed %d: violation %v (%v), want %v", tc.pushed, got, rep.violations, tc.want)
		}
		if tc.want && !strings.HasPrefix(rep.violations[0], "push-count: tail push b0: expected 3 (the changes the runtime acknowledged)") {
			t.Fatalf("got %q", rep.violations[0])
		}
	}
}
