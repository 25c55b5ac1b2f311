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
		t.Run(tc.name, func(t *testing.T) { judgeReplayCase(t, (*Host).judgeReplay, tc.kind, tc.calls, tc.fires) })
	}
}

// judgeReplayCase runs judge on one actor's record and checks whether it
// broke property replay.
func judgeReplayCase(t *testing.T, judge func(*Host, finished, []faults.Call) *Violation, kind string, calls []faults.Call, fires bool) {
	t.Helper()
	h := newJudgeHost(t, nil)
	defer h.Close()
	r := &recordBuilder{actor: "#1." + kind + ".b0"}
	for _, c := range calls {
		r.add(c)
	}
	v := judge(h, finished{actor: r.actor, kind: kind, backend: 0, marks: []int{0}}, r.calls)
	if fired := v != nil; fired != fires {
		t.Fatalf("expected the rule to fire: %v, got %v", fires, v)
	}
	if v != nil && v.Property != "replay" {
		t.Fatalf("expected property replay, got %s", v.Property)
	}
}

// TestNoReplayRule feeds judgeNoReplay records whose first failure is one
// the harness planted as no transport failure (SPEC 5.2 step 1: returned
// as it is), with and without a further call.
func TestNoReplayRule(t *testing.T) {
	rpc := faults.Call{Err: "rpc error", Fault: faults.RPCError, Conn: 1}
	deep := faults.Call{Err: "layer 1: ...", Fault: faults.TransportMidStream, Unclassed: true, Conn: 1}
	transport := faults.Call{Err: "x", Fault: faults.TransportMidStream, Transport: true, Conn: 1}
	with := func(c faults.Call, op faults.Op) faults.Call { c.Op = op; return c }
	for _, tc := range []struct {
		name  string
		kind  string
		calls []faults.Call
		fires bool
	}{
		{"retry rpc error, then a second pass", "retry", []faults.Call{
			{Op: faults.OpFetch, Conn: 1}, with(rpc, faults.OpStreamNext), {Op: faults.OpStreamClose, Conn: 1},
			{Op: faults.OpConnect, Conn: 2}}, true},
		{"retry rpc error, teardown only", "retry", []faults.Call{
			{Op: faults.OpFetch, Conn: 1}, with(rpc, faults.OpStreamNext), {Op: faults.OpStreamClose, Conn: 1}}, false},
		{"pull failure past the 8 levels, replayed", "pull", []faults.Call{
			with(deep, faults.OpFetch), {Op: faults.OpFetch, Conn: 1}}, true},
		{"transport failure, replayed", "pull", []faults.Call{
			with(transport, faults.OpFetch), {Op: faults.OpConnect, Conn: 2}}, false},
		{"exec dispatch failure past the 8 levels, replayed", "exec", []faults.Call{
			{Op: faults.OpConnect, Conn: 1}, with(deep, faults.OpPush), {Op: faults.OpPush, Conn: 1}}, true},
		{"exec failure after dispatch is not this rule's", "exec", []faults.Call{
			{Op: faults.OpExec, Conn: 1}, with(deep, faults.OpEventNext), {Op: faults.OpFetch, Conn: 1}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) { judgeReplayCase(t, (*Host).judgeNoReplay, tc.kind, tc.calls, tc.fires) })
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
