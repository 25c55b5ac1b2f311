package sim

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// TestErrorClassRule feeds an explicit pull's record and error to the
// error-class judge: each record's class with an error of that class
// passes, and the same message without the class (an error that prints
// alike but does not match errors.Is), an error of another class, or one
// that also matches the cancellation or the cross-side assertion, fails.
func TestErrorClassRule(t *testing.T) {
	const actor = "#1.pull.b0"
	inRev := scheduler.AtPath(1, "/host/3")
	injected := func(k faults.Kind) error { return &faults.InjectedError{Kind: k, Msg: "the peer went away"} }
	transportRec := func() []faults.Call {
		r := &recordBuilder{actor: actor}
		r.add(faults.Call{Op: faults.OpConnect, Err: "refused", Transport: true})
		r.add(faults.Call{Op: faults.OpConnect, Err: "refused", Transport: true})
		return r.calls
	}
	rpcRec := func() []faults.Call {
		r := &recordBuilder{actor: actor}
		r.add(faults.Call{Op: faults.OpConnect, Conn: 1})
		r.add(faults.Call{Op: faults.OpFetch, Conn: 1, Fault: faults.RPCError, Err: "backend unavailable"})
		return r.calls
	}
	lostRec := func() []faults.Call {
		r := &recordBuilder{actor: actor}
		r.add(faults.Call{Op: faults.OpConnect, Conn: 1})
		r.add(faults.Call{Op: faults.OpFetch, Conn: 1, Fault: faults.RPCError, Err: "lost", Lost: true})
		return r.calls
	}
	crossRec := func() []faults.Call {
		r := &recordBuilder{actor: actor}
		r.add(faults.Call{Op: faults.OpConnect, Conn: 1})
		r.add(faults.Call{Op: faults.OpFetch, Conn: 1, Stream: 1, After: scheduler.At(1), CurrentCursor: scheduler.At(1), AppliedPushCursor: inRev})
		r.add(faults.Call{Op: faults.OpStreamClose, Conn: 1, Stream: 1})
		return r.calls
	}
	crossErr := &workspace.CrossSideError{AppliedPushCursor: inRev, PushCursor: scheduler.At(1)}
	for _, tc := range []struct {
		name  string
		calls []faults.Call
		reads []pushRevRead
		err   error
		class string
		fires bool
	}{
		{"cross-side, the typed error", crossRec(), []pushRevRead{{pos: 1, rev: 1}}, crossErr, "cross-side", false},
		{"cross-side, the text alone", crossRec(), []pushRevRead{{pos: 1, rev: 1}}, errors.New(crossErr.Error()), "cross-side", true},
		{"cross-side, no error", crossRec(), []pushRevRead{{pos: 1, rev: 1}}, nil, "cross-side", true},
		{"complete (pushRev behind), no error", crossRec(), []pushRevRead{{pos: 1, rev: 0}}, nil, "complete", false},
		{"complete, an error", crossRec(), []pushRevRead{{pos: 1, rev: 0}}, crossErr, "complete", true},
		{"transport, a TransportError", transportRec(), nil, &workspace.TransportError{Msg: "failed after 1 reconnect retry"}, "transport", false},
		{"transport, the raw failure", transportRec(), nil, errors.New("connection refused"), "transport", true},
		{"rpc error, as it is", rpcRec(), nil, &workspace.RPCError{Op: "fetchChanges", Err: injected(faults.RPCError)}, "injected", false},
		{"rpc error, made a transport failure", rpcRec(), nil, &workspace.TransportError{Msg: "x", Cause: injected(faults.RPCError)}, "injected", true},
		{"rpc error, class lost", rpcRec(), nil, fmt.Errorf("fetch: %v", injected(faults.RPCError)), "injected", true},
		{"lost, an ExecutionLostError", lostRec(), nil, &workspace.ExecutionLostError{Code: workspace.CodeExecutionLost, Msg: "lost"}, "lost", false},
		{"lost, another error", lostRec(), nil, injected(faults.RPCError), "lost", true},
		{"transport, also cancelled", transportRec(), nil, &workspace.TransportError{Msg: "x", Cause: context.Canceled}, "transport", true},
		{"transport, also cross-side", transportRec(), nil, &workspace.TransportError{Msg: "x", Cause: crossErr}, "transport", true},
		{"rpc error, also cancelled", rpcRec(), nil, errors.Join(injected(faults.RPCError), context.Canceled), "injected", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newJudgeHost(t, nil)
			defer h.Close()
			f := finished{actor: actor, kind: "pull", backend: 0, marks: []int{h.containers[0].Mark()}, err: tc.err}
			h.pushRevReads = map[string][]pushRevRead{actor: tc.reads}
			want := h.pullErrClass(f, tc.calls)
			if want.name != tc.class {
				t.Fatalf("predicted class %s, want %s", want.name, tc.class)
			}
			v := h.judgeErrClass(f, want)
			if fired := v != nil; fired != tc.fires {
				t.Fatalf("expected a violation %t, got %v", tc.fires, v)
			}
			if v != nil && v.Property != "error-class" {
				t.Fatalf("expected error-class, got %s", v.Property)
			}
		})
	}
}

// TestExplicitPullIsJudged runs explicit pulls through a host: one that
// finds nothing, one after a command, each judged complete with no error.
func TestExplicitPullIsJudged(t *testing.T) {
	h := newJudgeHost(t, nil)
	defer h.Close()
	h.SpawnPull(0)
	if v := h.Step(); v != nil {
		t.Fatal(v)
	}
	h.SpawnExec(0, workspace.SyncDefer, 2)
	if v := h.Step(); v != nil {
		t.Fatal(v)
	}
	h.SpawnPull(0)
	if v := h.Step(); v != nil {
		t.Fatal(v)
	}
	if n := h.stats.ExecSync["pull/complete"]; n != 2 {
		t.Fatalf("expected 2 pulls judged complete, got %d (%v)", n, h.stats.ExecSync)
	}
}

// TestRejectedRetryKeepsTheStoreError: a retry the model rejects (an
// intent-store call the harness failed) returns that failure as it is;
// one that flattened it to text, or made it a transport failure, does not.
func TestRejectedRetryKeepsTheStoreError(t *testing.T) {
	h := newJudgeHost(t, nil)
	defer h.Close()
	injected := &faults.InjectedError{Kind: faults.StoreGet, Msg: "scheduler store unavailable"}
	for _, tc := range []struct {
		err   error
		fires bool
	}{
		{fmt.Errorf("get: %w", injected), false},
		{fmt.Errorf("get: %v", injected), true},
		{&workspace.TransportError{Msg: "get", Cause: injected}, true},
	} {
		h.violated = nil
		v := h.judgeErrClass(finished{actor: "#1.retry.b0", kind: "retry", err: tc.err}, wantStore)
		if fired := v != nil; fired != tc.fires {
			t.Errorf("%T %v: expected a violation %t, got %v", tc.err, tc.err, tc.fires, v)
		}
	}
}

// TestUnexplainedFailure: an exec that failed before its command ran is
// explained only by its record — a failed call of its own, a cancel that
// landed on it — and fails error-class otherwise.
func TestUnexplainedFailure(t *testing.T) {
	const actor = "#1.exec.b0"
	refused := errors.New("Workspace requires a retryScheduler for deferred synchronization")
	failedPush := func() []faults.Call {
		r := &recordBuilder{actor: actor}
		r.add(faults.Call{Op: faults.OpConnect, Conn: 1})
		r.add(faults.Call{Op: faults.OpPush, Conn: 1, Fault: faults.RPCError, Err: "backend unavailable"})
		return r.calls
	}
	onlyTeardownFailed := func() []faults.Call {
		r := &recordBuilder{actor: actor}
		r.add(faults.Call{Op: faults.OpConnect, Conn: 1})
		r.add(faults.Call{Op: faults.OpClose, Conn: 1, Err: "already closed"})
		return r.calls
	}
	for _, tc := range []struct {
		name  string
		calls []faults.Call
		err   error
		hit   bool
		fires bool
	}{
		{"no call at all", nil, refused, false, true},
		{"only a teardown failed", onlyTeardownFailed(), refused, false, true},
		{"a cancel landed on it", nil, context.Canceled, true, false},
		{"its push failed", failedPush(), &workspace.RPCError{Op: "push", Err: errors.New("backend unavailable")}, false, false},
		{"no error", nil, nil, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newJudgeHost(t, nil)
			defer h.Close()
			f := finished{actor: actor, kind: "exec", backend: 0, marks: []int{h.containers[0].Mark()}, err: tc.err}
			if tc.hit {
				h.hit = map[string]bool{actor: true}
			}
			v := h.judgeUnexplained(f, h.failureClass(f, tc.calls), tc.calls, "the exec failed before its command ran")
			if fired := v != nil; fired != tc.fires {
				t.Fatalf("expected a violation %t, got %v", tc.fires, v)
			}
			if v != nil && v.Property != "error-class" {
				t.Fatalf("expected error-class, got %s", v.Property)
			}
		})
	}
}

// TestPreDispatchClass: an exec whose pre-exec push failed by transport on
// its last pass ends with an error matching both ErrPreDispatchTransport
// and ErrTransport (SPEC 5.2: the push's failure is re-wrapped as
// pre-dispatch and stays the cause); a connect failure is transport only.
func TestPreDispatchClass(t *testing.T) {
	const actor = "#1.exec.b0"
	rec := func(last faults.Op) []faults.Call {
		r := &recordBuilder{actor: actor}
		r.add(faults.Call{Op: faults.OpConnect, Conn: 1})
		r.add(faults.Call{Op: faults.OpPush, Conn: 1, Err: "socket hang up", Transport: true})
		r.add(faults.Call{Op: faults.OpClose, Conn: 1})
		r.add(faults.Call{Op: faults.OpConnect, Conn: 2})
		r.add(faults.Call{Op: last, Conn: 2, Err: "socket hang up", Transport: true})
		return r.calls
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
		{"connect, plain transport", faults.OpConnect, plain, "transport", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newJudgeHost(t, nil)
			defer h.Close()
			f := finished{actor: actor, kind: "exec", backend: 0, marks: []int{h.containers[0].Mark()}, err: tc.err}
			want := h.execDispatchClass(f, rec(tc.last))
			if want.name != tc.class {
				t.Fatalf("predicted class %s, want %s", want.name, tc.class)
			}
			if fired := h.judgeErrClass(f, want) != nil; fired != tc.fires {
				t.Fatalf("expected a violation %t, got %t", tc.fires, fired)
			}
		})
	}
}
