package sim

import (
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// Zero fields take SPEC 6.5's PUSH_BATCH, as workspace.New does.
func TestDefaultPushBudget(t *testing.T) {
	h := newJudgeHost(t, nil)
	if got := h.pushBudget(); got != workspace.DefaultPushBudget {
		t.Fatalf("default push budget %+v, want %+v", got, workspace.DefaultPushBudget)
	}
}

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

func TestPullOnceTripsCrossSide(t *testing.T) {
	mid := scheduler.Cursor{Rev: 1, Path: "/host/3", HasPath: true}
	fetch := func(applied scheduler.Cursor, after, current int64) faults.Call {
		return faults.Call{Op: faults.OpFetch, Stream: 4, AppliedPushCursor: applied, After: scheduler.At(after), CurrentCursor: scheduler.At(current)}
	}
	closeS := faults.Call{Op: faults.OpStreamClose, Stream: 4}
	read := faults.Call{Op: faults.OpStreamNext, Stream: 4, Entry: &mid}
	for _, tc := range []struct {
		name  string
		calls []faults.Call
		want  bool
	}{
		{"applied-push inside a revision, closed unread", []faults.Call{fetch(mid, 1, 3), closeS}, true},
		{"applied-push at a whole revision", []faults.Call{fetch(scheduler.At(1), 1, 3), closeS}, false},
		{"nothing to read", []faults.Call{fetch(mid, 3, 3), closeS}, false},
		{"the stream was read", []faults.Call{fetch(mid, 1, 3), read, closeS}, false},
		{"a reset fetch follows", []faults.Call{fetch(mid, 1, 3), closeS, fetch(scheduler.At(1), 0, 3), read}, false},
		{"no fetch", []faults.Call{{Op: faults.OpConnect}}, false},
	} {
		if got := pullOnceTripsCrossSide(tc.calls, nil); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	// With the pushRev the pull read before its last fetch, the comparison
	// is SPEC 6.3 step 5's own, ahead of step 6's early return: nothing to
	// read still trips, and the stopping of the SUT plays no part.
	at := func(seq int, c faults.Call) faults.Call { c.Seq = seq; return c }
	for _, tc := range []struct {
		name  string
		calls []faults.Call
		reads []pushRevRead
		want  bool
	}{
		{"nothing to read, pushRev at the revision", []faults.Call{at(5, fetch(mid, 3, 3)), at(6, closeS)}, []pushRevRead{{pos: 4, rev: 1}}, true},
		{"pushRev behind the revision", []faults.Call{at(5, fetch(mid, 1, 3)), at(6, closeS)}, []pushRevRead{{pos: 4, rev: 0}}, false},
		{"reset read before the second fetch", []faults.Call{at(5, fetch(mid, 1, 3)), at(6, closeS), at(8, fetch(mid, 0, 3))},
			[]pushRevRead{{pos: 4, rev: 2}, {pos: 7, rev: 0}}, false},
		{"a read after the fetch does not count", []faults.Call{at(5, fetch(mid, 3, 3))}, []pushRevRead{{pos: 4, rev: 0}, {pos: 5, rev: 1}}, false},
	} {
		if got := pullOnceTripsCrossSide(tc.calls, tc.reads); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	// The text the assertion must then read names the two cursors it
	// compared, rendered as traces render them; with no read to go by it
	// is not predicted.
	odd := scheduler.Cursor{Rev: 3, Path: "/a \"b\"", HasPath: true}
	for _, tc := range []struct {
		name  string
		calls []faults.Call
		reads []pushRevRead
		want  string
	}{
		{"by a read", []faults.Call{at(5, fetch(mid, 3, 3)), at(6, closeS)}, []pushRevRead{{pos: 4, rev: 1}},
			`cross-side invariant violated: appliedPushCursor ({1,"/host/3"}) < pushCursor ({1,null})`},
		{"a path that quotes", []faults.Call{at(5, fetch(odd, 3, 3)), at(6, closeS)}, []pushRevRead{{pos: 4, rev: 3}},
			`cross-side invariant violated: appliedPushCursor ({3,"/a \"b\""}) < pushCursor ({3,null})`},
		{"by the record alone", []faults.Call{at(5, fetch(mid, 1, 3)), at(6, closeS)}, nil, ""},
		{"no trip", []faults.Call{at(5, fetch(mid, 1, 3)), at(6, closeS)}, []pushRevRead{{pos: 4, rev: 0}}, ""},
	} {
		if _, got := crossSideTrip(tc.calls, tc.reads); got != tc.want {
			t.Errorf("%s: text %q, want %q", tc.name, got, tc.want)
		}
	}
}
