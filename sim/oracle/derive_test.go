package oracle

import (
	"testing"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// TestPullOutcomeHandles pins how a pull's record reads when the actor made
// few or no remote calls: only holding a handle (a connect, its runtime id,
// its sync channel or a call on it) can make a pull anything but failed.
func TestPullOutcomeHandles(t *testing.T) {
	rt := "b0-rt1"
	on := func(op faults.Op) faults.Call {
		return faults.Call{Op: op, Conn: 1, RuntimeID: rt, HasRuntimeID: true}
	}
	refused := faults.Call{Op: faults.OpConnect, Err: "connection refused"}
	fetch := on(faults.OpFetch)
	fetch.CurrentCursor = scheduler.At(3)
	failedFetch := on(faults.OpFetch)
	failedFetch.Err = "injected rpc-error"
	lostFetch := failedFetch
	lostFetch.Lost = true
	cases := []struct {
		name  string
		calls []faults.Call
		fence *string
		want  model.PullKind
	}{
		{"no call: shared connects that failed", nil, nil, model.PullFailed},
		{"only the command's event-close", []faults.Call{on(faults.OpEventClose)}, &rt, model.PullFailed},
		{"own connects refused", []faults.Call{refused, refused}, nil, model.PullFailed},
		{"sync channel only: cursor already at the target", []faults.Call{on(faults.OpSync)}, nil, model.PullComplete},
		{"refused, then a handle with nothing to fetch", []faults.Call{refused, on(faults.OpSync)}, nil, model.PullComplete},
		{"fenced handle, fetched", []faults.Call{on(faults.OpRuntimeID), on(faults.OpSync), fetch}, &rt, model.PullComplete},
		{"fence mismatch stands over the sync take", []faults.Call{on(faults.OpRuntimeID), on(faults.OpSync)}, scheduler.Ptr("b0-rt2"), model.PullLost},
		{"the runtime raised EEXEC_LOST itself", []faults.Call{on(faults.OpRuntimeID), on(faults.OpSync), lostFetch}, &rt, model.PullLost},
		{"an ordinary fetch failure", []faults.Call{on(faults.OpSync), failedFetch}, nil, model.PullFailed},
	}
	for _, c := range cases {
		if got := pullOutcome(c.calls, c.fence, workspace.DefaultBudget, wallBudget{}).Kind; got != c.want {
			t.Errorf("%s: pull %s, want %s", c.name, got, c.want)
		}
	}
}

// TestWallStopOutcome: a stream closed unread short of its target is a
// batch the wall budget stopped where it began (progress at the fetch's
// cursor) when the budget may have run out by the close; otherwise, and
// at the target, the pull is complete.
func TestWallStopOutcome(t *testing.T) {
	const W = time.Second
	// unread is a retry's fetch at modelT0 of {0,null} up to {9,null},
	// its stream closed unread at closeAt.
	unread := func(closeAt time.Duration) []faults.Call {
		return []faults.Call{{Op: faults.OpSync},
			{Seq: 1, Op: faults.OpFetch, Stream: 1, At: modelT0, After: scheduler.At(0), CurrentCursor: scheduler.At(9)},
			{Seq: 2, Op: faults.OpStreamClose, Stream: 1, At: modelT0.Add(closeAt)}}
	}
	atTarget := unread(W)
	atTarget[1].After = scheduler.At(9)
	budget := workspace.Budget{MaxEntries: 64, MaxBytes: 4 << 20, MaxWallTime: W}
	for _, tc := range []struct {
		name  string
		calls []faults.Call
		wall  wallBudget
		want  model.PullKind
	}{
		{"budget spent by the close", unread(W), wallBudget{limit: W, begun: modelT0}, model.PullProgress},
		{"budget not spent by the close", unread(W - 1), wallBudget{limit: W, begun: modelT0}, model.PullComplete},
		{"no wall budget", unread(W), wallBudget{}, model.PullComplete},
		{"already at the target", atTarget, wallBudget{limit: W, begun: modelT0}, model.PullComplete},
	} {
		got := pullOutcome(tc.calls, nil, budget, tc.wall)
		if got.Kind != tc.want {
			t.Errorf("%s: expected a %s pull, got %s", tc.name, tc.want, got.Kind)
		}
		if got.Kind == model.PullProgress && got.Cursor != scheduler.At(0) {
			t.Errorf("%s: a batch stopped before its first read stops at the fetch's cursor {0,null}, got %v", tc.name, got.Cursor)
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
		reads []history.PushRevRead
		want  bool
	}{
		{"nothing to read, pushRev at the revision", []faults.Call{at(5, fetch(mid, 3, 3)), at(6, closeS)}, []history.PushRevRead{{Pos: 4, Rev: 1}}, true},
		{"pushRev behind the revision", []faults.Call{at(5, fetch(mid, 1, 3)), at(6, closeS)}, []history.PushRevRead{{Pos: 4, Rev: 0}}, false},
		{"reset read before the second fetch", []faults.Call{at(5, fetch(mid, 1, 3)), at(6, closeS), at(8, fetch(mid, 0, 3))},
			[]history.PushRevRead{{Pos: 4, Rev: 2}, {Pos: 7, Rev: 0}}, false},
		{"a read after the fetch does not count", []faults.Call{at(5, fetch(mid, 3, 3))}, []history.PushRevRead{{Pos: 4, Rev: 0}, {Pos: 5, Rev: 1}}, false},
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
		reads []history.PushRevRead
		want  string
	}{
		{"by a read", []faults.Call{at(5, fetch(mid, 3, 3)), at(6, closeS)}, []history.PushRevRead{{Pos: 4, Rev: 1}},
			`cross-side invariant violated: appliedPushCursor ({1,"/host/3"}) < pushCursor ({1,null})`},
		{"a path that quotes", []faults.Call{at(5, fetch(odd, 3, 3)), at(6, closeS)}, []history.PushRevRead{{Pos: 4, Rev: 3}},
			`cross-side invariant violated: appliedPushCursor ({3,"/a \"b\""}) < pushCursor ({3,null})`},
		{"by the record alone", []faults.Call{at(5, fetch(mid, 1, 3)), at(6, closeS)}, nil, ""},
		{"no trip", []faults.Call{at(5, fetch(mid, 1, 3)), at(6, closeS)}, []history.PushRevRead{{Pos: 4, Rev: 0}}, ""},
	} {
		if _, got := crossSideTrip(tc.calls, tc.reads); got != tc.want {
			t.Errorf("%s: text %q, want %q", tc.name, got, tc.want)
		}
	}
}
