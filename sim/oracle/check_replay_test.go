package oracle

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
)

// stepRecord is a Records whose backend 0 record is calls.
type stepRecord []faults.Call

func (r stepRecord) RuntimeSince(_, mark int) []faults.Call { return r[mark:] }

func (r stepRecord) StoreSince(int) []faults.StoreCall { return nil }

// judgeReplayOp feeds the replay family one finished operation (after the
// events before, if any) whose step's record is its own calls plus
// others', and returns the property it reported ("" for none).
func judgeReplayOp(t *testing.T, before []history.Kind, op history.Op, others ...faults.Call) string {
	t.Helper()
	actor := "#1." + op.Kind + ".b0"
	op.Calls = ownCalls(actor, op.Calls...)
	op.StepMarks = []int{0}
	var rep recorder
	c := Lookup("replay").New(func(string) bool { return true })
	c.Begin(history.Setup{Backends: []string{"b0"}}, stepRecord(append(append([]faults.Call(nil), op.Calls...), others...)))
	for _, k := range before {
		c.Observe(&history.Event{Kind: k}, &rep)
	}
	c.Observe(&history.Event{Kind: history.OpReturned, Actor: actor, Op: &op}, &rep)
	if len(rep.violations) == 0 {
		return ""
	}
	property, _, _ := strings.Cut(rep.violations[0], ":")
	return property
}

// Records where SPEC 5.2 requires a second pass, with and without one, and
// records where it forbids or does not require one.
func TestReplayRule(t *testing.T) {
	transport := faults.Call{Err: "x", Transport: true}
	pre := faults.Call{Err: "x", Transport: true, PreDispatch: true}
	with := func(c faults.Call, op faults.Op) faults.Call { c.Op = op; c.Conn = 1; return c }
	for _, tc := range []struct {
		name  string
		kind  string
		calls []faults.Call
		want  string
	}{
		{"retry transport failure, no second pass", "retry", []faults.Call{
			{Op: faults.OpConnect, Conn: 1}, {Op: faults.OpFetch, Conn: 1}, with(transport, faults.OpStreamNext),
			{Op: faults.OpStreamClose, Conn: 1}, {Op: faults.OpClose, Conn: 1}}, "replay"},
		{"retry transport failure, second pass", "retry", []faults.Call{
			{Op: faults.OpFetch, Conn: 1}, with(transport, faults.OpStreamNext), {Op: faults.OpClose, Conn: 1},
			{Op: faults.OpConnect, Conn: 2}}, ""},
		{"retry non-transport failure is not replayed", "retry", []faults.Call{
			{Op: faults.OpFetch, Conn: 1}, {Op: faults.OpStreamNext, Conn: 1, Err: "rpc error"}}, ""},
		{"spawn failed before dispatch, not replayed", "exec", []faults.Call{
			{Op: faults.OpConnect, Conn: 1}, with(pre, faults.OpExec), {Op: faults.OpClose, Conn: 1}}, "replay"},
		{"spawn failed after it may have started, not replayed", "exec", []faults.Call{
			{Op: faults.OpConnect, Conn: 1}, with(transport, faults.OpExec), {Op: faults.OpClose, Conn: 1}}, ""},
		{"pre-exec push failed, not replayed", "exec", []faults.Call{
			{Op: faults.OpConnect, Conn: 1}, with(transport, faults.OpPush), {Op: faults.OpClose, Conn: 1}}, "replay"},
		{"pre-exec push failed, replayed", "exec", []faults.Call{
			{Op: faults.OpConnect, Conn: 1}, with(transport, faults.OpPush), {Op: faults.OpClose, Conn: 1}, {Op: faults.OpConnect, Conn: 2},
			{Op: faults.OpPush, Conn: 2}, {Op: faults.OpExec, Conn: 2}}, ""},
		{"failure after the dispatch is not this rule's", "exec", []faults.Call{
			{Op: faults.OpExec, Conn: 1}, with(transport, faults.OpEventNext), {Op: faults.OpClose, Conn: 1}}, ""},
	} {
		if got := judgeReplayOp(t, nil, history.Op{Kind: tc.kind, Calls: tc.calls}); got != tc.want {
			t.Errorf("%s: expected %q, got %q", tc.name, tc.want, got)
		}
	}
	// Another actor's connect in the step proves nothing; a cancelled
	// operation is not judged.
	noPass := []faults.Call{{Op: faults.OpFetch, Conn: 1}, with(transport, faults.OpStreamNext), {Op: faults.OpClose, Conn: 1}}
	if got := judgeReplayOp(t, nil, history.Op{Kind: "retry", Calls: noPass}, faults.Call{Actor: "#2.retry.b0", Op: faults.OpConnect, Conn: 2}); got != "" {
		t.Errorf("another actor connected: expected nothing, got %q", got)
	}
	if got := judgeReplayOp(t, nil, history.Op{Kind: "retry", Calls: noPass, CancelHit: true}); got != "" {
		t.Errorf("a cancel hit the retry: expected nothing, got %q", got)
	}
}

// A failure planted as no transport failure (SPEC 5.2 step 1: returned as
// it is) is followed by no call but teardown.
func TestNoReplayRule(t *testing.T) {
	rpc := faults.Call{Err: "rpc error", Fault: faults.RPCError, Conn: 1}
	deep := faults.Call{Err: "layer 1: ...", Fault: faults.TransportMidStream, Unclassed: true, Conn: 1}
	transport := faults.Call{Err: "x", Fault: faults.TransportMidStream, Transport: true, Conn: 1}
	with := func(c faults.Call, op faults.Op) faults.Call { c.Op = op; return c }
	for _, tc := range []struct {
		name  string
		kind  string
		calls []faults.Call
		want  string
	}{
		{"retry rpc error, then a second pass", "retry", []faults.Call{
			{Op: faults.OpFetch, Conn: 1}, with(rpc, faults.OpStreamNext), {Op: faults.OpStreamClose, Conn: 1},
			{Op: faults.OpConnect, Conn: 2}}, "replay"},
		{"retry rpc error, teardown only", "retry", []faults.Call{
			{Op: faults.OpFetch, Conn: 1}, with(rpc, faults.OpStreamNext), {Op: faults.OpStreamClose, Conn: 1}}, ""},
		{"pull failure past the 8 levels, replayed", "pull", []faults.Call{
			with(deep, faults.OpFetch), {Op: faults.OpFetch, Conn: 1}}, "replay"},
		{"transport failure, replayed", "pull", []faults.Call{
			with(transport, faults.OpFetch), {Op: faults.OpClose, Conn: 1}, {Op: faults.OpConnect, Conn: 2}}, ""},
		{"exec dispatch failure past the 8 levels, replayed", "exec", []faults.Call{
			{Op: faults.OpConnect, Conn: 1}, with(deep, faults.OpPush), {Op: faults.OpPush, Conn: 1}}, "replay"},
		{"exec failure after dispatch is not this rule's", "exec", []faults.Call{
			{Op: faults.OpExec, Conn: 1}, with(deep, faults.OpEventNext), {Op: faults.OpFetch, Conn: 1}}, ""},
	} {
		if got := judgeReplayOp(t, nil, history.Op{Kind: tc.kind, Calls: tc.calls}); got != tc.want {
			t.Errorf("%s: expected %q, got %q", tc.name, tc.want, got)
		}
	}
}

// A transport failure inside a reconnecting operation or of an event
// stream must close its connection; the target capture's (watermarks with
// settle) and a non-transport failure need not, nor one in a step a host
// restart cut.
func TestInvalidateRule(t *testing.T) {
	for _, tc := range []struct {
		name   string
		before []history.Kind
		call   faults.Call
		want   string
	}{
		{"fetch", nil, faults.Call{Op: faults.OpFetch, Conn: 1, Err: "x", Transport: true}, "invalidate"},
		{"event stream", nil, faults.Call{Op: faults.OpEventNext, Conn: 1, Err: "x", Transport: true}, "invalidate"},
		{"reconcile", nil, faults.Call{Op: faults.OpWatermarks, Conn: 1, Err: "x", Transport: true}, "invalidate"},
		{"target capture", nil, faults.Call{Op: faults.OpWatermarks, Settle: true, Conn: 1, Err: "x", Transport: true}, ""},
		{"rpc error", nil, faults.Call{Op: faults.OpFetch, Conn: 1, Err: "x"}, ""},
		{"connect", nil, faults.Call{Op: faults.OpConnect, Err: "x", Transport: true}, ""},
		{"step cut by a restart", []history.Kind{history.StepCut}, faults.Call{Op: faults.OpEventNext, Conn: 1, Err: "x", Transport: true}, ""},
		{"cut step over", []history.Kind{history.StepCut, history.HostStart}, faults.Call{Op: faults.OpEventNext, Conn: 1, Err: "x", Transport: true}, "invalidate"},
	} {
		if got := judgeReplayOp(t, tc.before, history.Op{Kind: "exec", Calls: []faults.Call{{Op: faults.OpExec, Conn: 1}, tc.call}}); got != tc.want {
			t.Errorf("%s: expected %q, got %q", tc.name, tc.want, got)
		}
	}
	closedBy := faults.Call{Actor: "#2.exec.b0", Op: faults.OpClose, Conn: 1}
	if got := judgeReplayOp(t, nil, history.Op{Kind: "exec", Calls: []faults.Call{{Op: faults.OpExec, Conn: 1}, {Op: faults.OpEventNext, Conn: 1, Err: "x", Transport: true}}}, closedBy); got != "" {
		t.Errorf("closed by another actor: expected nothing, got %q", got)
	}
}
