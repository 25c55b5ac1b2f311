package oracle

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// TestErrorClassRule feeds an explicit pull's record and error to the
// error-class judge: each record's class with an error of that class
// passes, and the same message without the class (an error that prints
// alike but does not match errors.Is), an error of another class, or one
// that also matches the cancellation or the cross-side assertion, fails.
// A pull during which another actor connected is held to no class.
func TestErrorClassRule(t *testing.T) {
	const actor = "#1.pull.b0"
	inRev := scheduler.AtPath(1, "/host/3")
	injected := func(k faults.Kind) error { return &faults.InjectedError{Kind: k, Msg: "the peer went away"} }
	transportRec := ownCalls(actor,
		faults.Call{Op: faults.OpConnect, Err: "refused", Transport: true},
		faults.Call{Op: faults.OpConnect, Err: "refused", Transport: true})
	rpcRec := ownCalls(actor,
		faults.Call{Op: faults.OpConnect, Conn: 1},
		faults.Call{Op: faults.OpFetch, Conn: 1, Fault: faults.RPCError, Err: "backend unavailable"})
	lostRec := ownCalls(actor,
		faults.Call{Op: faults.OpConnect, Conn: 1},
		faults.Call{Op: faults.OpFetch, Conn: 1, Fault: faults.RPCError, Err: "lost", Lost: true})
	crossRec := ownCalls(actor,
		faults.Call{Op: faults.OpConnect, Conn: 1},
		faults.Call{Op: faults.OpFetch, Conn: 1, Stream: 1, After: scheduler.At(1), CurrentCursor: scheduler.At(1), AppliedPushCursor: inRev},
		faults.Call{Op: faults.OpStreamClose, Conn: 1, Stream: 1})
	crossErr := &workspace.CrossSideError{AppliedPushCursor: inRev, PushCursor: scheduler.At(1)}
	otherConnect := []faults.Call{{Seq: 1, Actor: "#2.exec.b0", Op: faults.OpConnect, Conn: 1}}
	for _, tc := range []struct {
		name   string
		calls  []faults.Call
		reads  []history.PushRevRead
		others []faults.Call // the backend's record while the pull ran
		err    error
		class  string
		fires  bool
	}{
		{"cross-side, the typed error", crossRec, []history.PushRevRead{{Pos: 1, Rev: 1}}, nil, crossErr, "cross-side", false},
		{"cross-side, the text alone", crossRec, []history.PushRevRead{{Pos: 1, Rev: 1}}, nil, errors.New(crossErr.Error()), "cross-side", true},
		{"cross-side, no error", crossRec, []history.PushRevRead{{Pos: 1, Rev: 1}}, nil, nil, "cross-side", true},
		{"complete (pushRev behind), no error", crossRec, []history.PushRevRead{{Pos: 1, Rev: 0}}, nil, nil, "complete", false},
		{"complete, an error", crossRec, []history.PushRevRead{{Pos: 1, Rev: 0}}, nil, crossErr, "complete", true},
		{"transport, a TransportError", transportRec, nil, nil, &workspace.TransportError{Msg: "failed after 1 reconnect retry"}, "transport", false},
		{"transport, the raw failure", transportRec, nil, nil, errors.New("connection refused"), "transport", true},
		{"rpc error, as it is", rpcRec, nil, nil, &workspace.RPCError{Op: "fetchChanges", Err: injected(faults.RPCError)}, "injected", false},
		{"rpc error, made a transport failure", rpcRec, nil, nil, &workspace.TransportError{Msg: "x", Cause: injected(faults.RPCError)}, "injected", true},
		{"rpc error, class lost", rpcRec, nil, nil, fmt.Errorf("fetch: %v", injected(faults.RPCError)), "injected", true},
		{"lost, an ExecutionLostError", lostRec, nil, nil, &workspace.ExecutionLostError{Code: workspace.CodeExecutionLost, Msg: "lost"}, "lost", false},
		{"lost, another error", lostRec, nil, nil, injected(faults.RPCError), "lost", true},
		{"transport, also cancelled", transportRec, nil, nil, &workspace.TransportError{Msg: "x", Cause: context.Canceled}, "transport", true},
		{"transport, also cross-side", transportRec, nil, nil, &workspace.TransportError{Msg: "x", Cause: crossErr}, "transport", true},
		{"rpc error, also cancelled", rpcRec, nil, nil, errors.Join(injected(faults.RPCError), context.Canceled), "injected", true},
		{"transport, the raw failure, another actor connected", transportRec, nil, otherConnect, errors.New("connection refused"), "shared-connect", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newModelHarness("b0")
			m.rec.runtime = tc.others
			e := opEvent(actor, "pull", tc.calls)
			e.Op.Err, e.Op.PushRevReads = tc.err, tc.reads
			want := m.pullErrClass(e)
			if want.name != tc.class {
				t.Fatalf("predicted class %s, want %s", want.name, tc.class)
			}
			got := m.verdict(t, m.judgeErrClass(e, want))
			if fired := got != ""; fired != tc.fires {
				t.Fatalf("expected a violation %t, got %v", tc.fires, m.reports.violations)
			}
			if got != "" && got != "error-class" {
				t.Fatalf("expected error-class, got %s", got)
			}
		})
	}
}

// TestRejectedRetryKeepsTheStoreError: a retry the model rejects (an
// intent-store call the harness failed) returns that failure as it is;
// one that flattened it to text, or made it a transport failure, does not.
func TestRejectedRetryKeepsTheStoreError(t *testing.T) {
	injected := &faults.InjectedError{Kind: faults.StoreGet, Msg: "scheduler store unavailable"}
	for _, tc := range []struct {
		err   error
		fires bool
	}{
		{fmt.Errorf("get: %w", injected), false},
		{fmt.Errorf("get: %v", injected), true},
		{&workspace.TransportError{Msg: "get", Cause: injected}, true},
	} {
		m := newModelHarness("b0")
		e := opEvent("#1.retry.b0", "retry", nil)
		e.Op.Err = tc.err
		if fired := m.verdict(t, m.judgeErrClass(e, wantStore)) != ""; fired != tc.fires {
			t.Errorf("%T %v: expected a violation %t, got %v", tc.err, tc.err, tc.fires, m.reports.violations)
		}
	}
}

// TestUnexplainedFailure: an exec that failed before its command ran is
// explained only by its record — a failed call of its own, a cancel that
// landed on it — and fails error-class otherwise.
func TestUnexplainedFailure(t *testing.T) {
	const actor = "#1.exec.b0"
	refused := errors.New("Workspace requires a retryScheduler for deferred synchronization")
	failedPush := ownCalls(actor,
		faults.Call{Op: faults.OpConnect, Conn: 1},
		faults.Call{Op: faults.OpPush, Conn: 1, Fault: faults.RPCError, Err: "backend unavailable"})
	onlyTeardownFailed := ownCalls(actor,
		faults.Call{Op: faults.OpConnect, Conn: 1},
		faults.Call{Op: faults.OpClose, Conn: 1, Err: "already closed"})
	for _, tc := range []struct {
		name  string
		calls []faults.Call
		err   error
		hit   bool
		fires bool
	}{
		{"no call at all", nil, refused, false, true},
		{"only a teardown failed", onlyTeardownFailed, refused, false, true},
		{"a cancel landed on it", nil, context.Canceled, true, false},
		{"its push failed", failedPush, &workspace.RPCError{Op: "push", Err: errors.New("backend unavailable")}, false, false},
		{"no error", nil, nil, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newModelHarness("b0")
			e := opEvent(actor, "exec", tc.calls)
			e.Op.Err, e.Op.CancelHit = tc.err, tc.hit
			got := m.verdict(t, m.judgeUnexplained(e, m.failureClass(e, tc.calls), "the exec failed before its command ran"))
			if fired := got != ""; fired != tc.fires {
				t.Fatalf("expected a violation %t, got %v", tc.fires, m.reports.violations)
			}
			if got != "" && got != "error-class" {
				t.Fatalf("expected error-class, got %s", got)
			}
		})
	}
}

// TestPreDispatchClass: an exec whose pre-exec push failed by transport on
// its last pass ends with an error matching both ErrPreDispatchTransport
// and ErrTransport (SPEC 5.2: the push's failure is re-wrapped as
// pre-dispatch and stays the cause), and one that matches the first alone
// is not a pre-dispatch failure; a connect failure is transport only.
func TestPreDispatchClass(t *testing.T) {
	const actor = "#1.exec.b0"
	rec := func(last faults.Op) []faults.Call {
		return ownCalls(actor,
			faults.Call{Op: faults.OpConnect, Conn: 1},
			faults.Call{Op: faults.OpPush, Conn: 1, Err: "socket hang up", Transport: true},
			faults.Call{Op: faults.OpClose, Conn: 1},
			faults.Call{Op: faults.OpConnect, Conn: 2},
			faults.Call{Op: last, Conn: 2, Err: "socket hang up", Transport: true})
	}
	pre := &workspace.PreDispatchTransportError{TransportError: workspace.TransportError{Msg: "pre-exec push failed: socket hang up"}}
	wrapped := &workspace.TransportError{Msg: "failed after 1 reconnect retry", Cause: pre}
	plain := &workspace.TransportError{Msg: "failed after 1 reconnect retry", Cause: errors.New("socket hang up")}
	for _, tc := range []struct {
		name  string
		last  faults.Op
		err   error
		class string
		fires bool
	}{
		{"push, pre-dispatch cause", faults.OpPush, wrapped, "pre-dispatch", false},
		{"push, plain transport", faults.OpPush, plain, "pre-dispatch", true},
		{"push, the bare wrapper", faults.OpPush, errors.New(wrapped.Error()), "pre-dispatch", true},
		{"push, pre-dispatch but not transport", faults.OpPush, fmt.Errorf("push: %w", workspace.ErrPreDispatchTransport), "pre-dispatch", true},
		{"connect, plain transport", faults.OpConnect, plain, "transport", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newModelHarness("b0")
			e := opEvent(actor, "exec", rec(tc.last))
			e.Op.Err = tc.err
			want := m.execDispatchClass(e)
			if want.name != tc.class {
				t.Fatalf("predicted class %s, want %s", want.name, tc.class)
			}
			if fired := m.verdict(t, m.judgeErrClass(e, want)) != ""; fired != tc.fires {
				t.Fatalf("expected a violation %t, got %v", tc.fires, m.reports.violations)
			}
		})
	}
}
