package sim

import (
	"testing"

	"github.com/syncsim/syncsim/faults"
)

// TestReplayRule feeds judgeReplay records where SPEC 5.2 requires a second
// pass, with and without one, and records where it forbids or does not
// require one.
func TestReplayRule(t *testing.T) {
	transport := faults.Call{Err: "x", Transport: true}
	pre := faults.Call{Err: "x", Transport: true, PreDispatch: true}
	with := func(c faults.Call, op faults.Op) faults.Call { c.Op = op; c.Conn = 1; return c }
	for _, tc := range []struct {
		name  string
		kind  string
		calls []faults.Call
		fires bool
	}{
		{"retry transport failure, no second pass", "retry", []faults.Call{
			{Op: faults.OpConnect, Conn: 1}, {Op: faults.OpFetch, Conn: 1}, with(transport, faults.OpStreamNext),
			{Op: faults.OpStreamClose, Conn: 1}, {Op: faults.OpClose, Conn: 1}}, true},
		{"retry transport failure, second pass", "retry", []faults.Call{
			{Op: faults.OpFetch, Conn: 1}, with(transport, faults.OpStreamNext), {Op: faults.OpClose, Conn: 1},
			{Op: faults.OpConnect, Conn: 2}}, false},
		{"retry non-transport failure is not replayed", "retry", []faults.Call{
			{Op: faults.OpFetch, Conn: 1}, {Op: faults.OpStreamNext, Conn: 1, Err: "rpc error"}}, false},
		{"spawn failed before dispatch, not replayed", "exec", []faults.Call{
			{Op: faults.OpConnect, Conn: 1}, with(pre, faults.OpExec), {Op: faults.OpClose, Conn: 1}}, true},
		{"spawn failed after it may have started, not replayed", "exec", []faults.Call{
			{Op: faults.OpConnect, Conn: 1}, with(transport, faults.OpExec), {Op: faults.OpClose, Conn: 1}}, false},
		{"pre-exec push failed, not replayed", "exec", []faults.Call{
			{Op: faults.OpConnect, Conn: 1}, with(transport, faults.OpPush)}, true},
		{"pre-exec push failed, replayed", "exec", []faults.Call{
			{Op: faults.OpConnect, Conn: 1}, with(transport, faults.OpPush), {Op: faults.OpConnect, Conn: 2},
			{Op: faults.OpPush, Conn: 2}, {Op: faults.OpExec, Conn: 2}}, false},
		{"failure after the dispatch is not this rule's", "exec", []faults.Call{
			{Op: faults.OpExec, Conn: 1}, with(transport, faults.OpEventNext)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newJudgeHost(t, nil)
			defer h.Close()
			r := &recordBuilder{actor: "#1." + tc.kind + ".b0"}
			for _, c := range tc.calls {
				r.add(c)
			}
			v := h.judgeReplay(finished{actor: r.actor, kind: tc.kind, backend: 0, marks: []int{0}}, r.calls)
			if fired := v != nil; fired != tc.fires {
				t.Fatalf("expected replay to fire: %v, got %v", tc.fires, v)
			}
			if v != nil && v.Property != "replay" {
				t.Fatalf("expected property replay, got %s", v.Property)
			}
		})
	}
}

// TestInvalidateRule: a transport failure inside a reconnecting operation
// or of an event stream must close its connection; the target capture's
// (watermarks with settle) and a non-transport failure need not.
func TestInvalidateRule(t *testing.T) {
	for _, tc := range []struct {
		name  string
		call  faults.Call
		fires bool
	}{
		{"fetch", faults.Call{Op: faults.OpFetch, Conn: 1, Err: "x", Transport: true}, true},
		{"event stream", faults.Call{Op: faults.OpEventNext, Conn: 1, Err: "x", Transport: true}, true},
		{"reconcile", faults.Call{Op: faults.OpWatermarks, Conn: 1, Err: "x", Transport: true}, true},
		{"target capture", faults.Call{Op: faults.OpWatermarks, Settle: true, Conn: 1, Err: "x", Transport: true}, false},
		{"rpc error", faults.Call{Op: faults.OpFetch, Conn: 1, Err: "x"}, false},
		{"connect", faults.Call{Op: faults.OpConnect, Err: "x", Transport: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newJudgeHost(t, nil)
			defer h.Close()
			r := (&recordBuilder{actor: "#1.retry.b0"}).add(tc.call)
			v := h.judgeInvalidate(finished{actor: r.actor, kind: "retry", backend: 0, marks: []int{0}}, r.calls)
			if fired := v != nil; fired != tc.fires {
				t.Fatalf("expected invalidate to fire: %v, got %v", tc.fires, v)
			}
		})
	}
}
