package oracle

import (
	"context"
	"errors"
	"fmt"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// Property error-class: an error an operation returns carries the class
// the SPEC gives it, matched with errors.Is against the sentinels (SPEC
// "Go mapping": promise rejections become errors that keep their
// classification through errors.Is / errors.As), and the class is
// predicted from the harness's record, never read off the error:
//
//   - a transport failure that ended a reconnecting operation (its second
//     pass, or a first pass the policy does not replay) surfaces as a
//     *TransportError: errors.Is(err, workspace.ErrTransport) (SPEC 5.2
//     steps 3, 4);
//   - EEXEC_LOST raised by the runtime surfaces as ErrExecutionLost (5.2
//     step 1, 7);
//   - the cross-side assertion surfaces as ErrCrossSideInvariant and is not
//     a transport failure (6.3 step 5: no reconnect);
//   - any other failure the harness planted (an RPC error, a local-store
//     fault) is returned as it is (5.2 step 1): errors.Is(err,
//     faults.ErrInjected), and not a transport failure;
//   - the caller's cancellation surfaces as context.Canceled;
//   - a pull whose last pass completed returns no error.
//
// The failure that ends an operation is the last failed call of its own
// (teardown aside). An operation during which another actor connected to
// the backend is not held to a class: it may have shared that connect and
// failed with the other actor's failure, which is not in its own calls (the
// replay property skips it for the same reason); nor is one whose own
// calls show no failure although it failed.

// errWant is the class an operation's error must have.
type errWant struct {
	name     string
	sentinel error // errors.Is(err, sentinel) must hold; nil with known: no error
	// notTransport: errors.Is(err, workspace.ErrTransport) must not hold;
	// alsoTransport: it must hold besides sentinel.
	notTransport, alsoTransport bool
	known                       bool
	// text, when set, is the whole text the error must read, predicted
	// from the record (the cross-side assertion's two cursors).
	text string
}

var (
	wantNone      = errWant{name: "complete", known: true}
	wantCrossSide = errWant{name: "cross-side", sentinel: workspace.ErrCrossSideInvariant, notTransport: true, known: true}
	wantTransport = errWant{name: "transport", sentinel: workspace.ErrTransport, known: true}
	// A transport failure of an exec's pre-exec push is re-wrapped as a
	// PreDispatchTransportError (SPEC 5.2), which stays the cause of the
	// error the exec ends with: it matches both sentinels.
	wantPreDispatch = errWant{name: "pre-dispatch", sentinel: workspace.ErrPreDispatchTransport, alsoTransport: true, known: true}
	wantLost        = errWant{name: "lost", sentinel: workspace.ErrExecutionLost, known: true}
	wantInjected    = errWant{name: "injected", sentinel: faults.ErrInjected, notTransport: true, known: true}
	wantCancelled   = errWant{name: "cancelled", sentinel: context.Canceled, known: true}
	wantStore       = errWant{name: "store", sentinel: faults.ErrInjected, notTransport: true, known: true}
	wantUnclassed   = errWant{name: "unclassed", sentinel: faults.ErrInjected, known: true}
)

// failureClass is the class of the failure that ended f's reconnecting
// operation (its calls are f's own, local-store faults in place).
func (c *ModelChecker) failureClass(e *history.Event, calls []faults.Call) errWant {
	if c.otherConnect(e) {
		return errWant{name: "shared-connect"}
	}
	for i := len(calls) - 1; i >= 0; i-- {
		call := calls[i]
		if call.Err == "" || cleanup(call.Op) {
			continue
		}
		return reconnectedClass(call)
	}
	return errWant{name: "unknown"}
}

// execDispatchClass is failureClass for an exec that failed before its
// command ran: a transport failure of its pre-exec push (the only push an
// exec makes before dispatch; a reconcile only reads watermarks) ends it
// as a pre-dispatch failure.
func (c *ModelChecker) execDispatchClass(e *history.Event) errWant {
	calls := e.Op.Calls
	want := c.failureClass(e, calls)
	if want.name != wantTransport.name {
		return want
	}
	for i := len(calls) - 1; i >= 0; i-- {
		if call := calls[i]; call.Err != "" && !cleanup(call.Op) {
			if call.Op == faults.OpPush && call.Transport {
				return wantPreDispatch
			}
			break
		}
	}
	return want
}

// reconnectedClass is the class runWithReconnect gives the failure of call
// c when c ends the operation.
func reconnectedClass(c faults.Call) errWant {
	switch {
	case c.Err == context.Canceled.Error() && c.Fault == faults.NoFault:
		return wantCancelled
	case c.Transport, c.Err == faults.ErrDisposed.Error():
		// A call on a handle the workspace closed fails with the
		// disposed-stub phrase, a (pre-dispatch) transport failure by SPEC
		// 5.2's classifier.
		return wantTransport
	case c.Lost:
		return wantLost
	case c.Unclassed:
		// Returned as it is (not re-wrapped: 5.2 step 1). Its carrier
		// still names a transport sentinel eight causes down, which
		// errors.Is (unbounded) finds, so only the planted fault is held.
		return wantUnclassed
	case c.Fault == faults.RPCError || c.Op == faults.OpLocalStore:
		return wantInjected
	}
	return errWant{name: "unknown"}
}

// streamClass is the class of the error Exec returns once its command
// streamed (SPEC 3.2): the caller's cancellation, or the event stream's own
// failure as the runtime raised it (not re-wrapped: no reconnect runs
// there), or none.
func streamClass(facts execFacts, calls []faults.Call) errWant {
	switch {
	case facts.cancelled:
		return wantCancelled
	case !facts.eventsErr:
		return wantNone
	}
	for i := len(calls) - 1; i >= 0; i-- {
		c := calls[i]
		if c.Op != faults.OpEventNext || c.Err == "" {
			continue
		}
		if c.Err == faults.ErrDisposed.Error() {
			return errWant{name: "disposed", sentinel: faults.ErrDisposed, known: true}
		}
		return errWant{name: "stream", sentinel: faults.ErrInjected, known: true}
	}
	return errWant{name: "unknown"}
}

// judgeUnexplained: an operation may fail only for a reason the harness
// made. One that failed although no call of its own failed (no runtime or
// local-store call, teardown aside), no cancel landed on it and it shared
// no other actor's connect (want is then "unknown") failed by itself: a
// workspace that refuses a valid request, or that gives up before trying,
// is caught here instead of passing as an outcome nobody predicted.
func (c *ModelChecker) judgeUnexplained(e *history.Event, want errWant, what string) bool {
	op, calls := e.Op, e.Op.Calls
	if op.Err == nil || want.known || want.name != "unknown" || op.CancelHit || firstFailure(calls, len(calls)) >= 0 {
		return false
	}
	return c.fail("error-class", fmt.Sprintf("%s: %s with %v, but nothing it did failed: no failed runtime or local-store call (%d calls), no cancel, no shared connect",
		e.Actor, what, faults.PublicText(op.Err), len(calls)))
}

// judgeErrClass holds f's error to want (error-class).
func (c *ModelChecker) judgeErrClass(e *history.Event, want errWant) bool {
	if !want.known || e.Op.CancelHit {
		// A cancel landed on the operation: whatever failed next, the
		// workspace may report its context's error instead (the cancel
		// property judges those).
		return false
	}
	err := e.Op.Err
	switch {
	case want.sentinel == nil && err != nil:
		return c.fail("error-class", fmt.Sprintf("%s: expected no error (its last pass completed, by the record), got %v", e.Actor, faults.PublicText(err)))
	case want.sentinel == nil:
		return false
	case err == nil:
		return c.fail("error-class", fmt.Sprintf("%s: expected an error matching %q (%s, by the record), got none", e.Actor, want.sentinel, want.name))
	case !errors.Is(err, want.sentinel):
		return c.fail("error-class", fmt.Sprintf("%s: expected errors.Is(err, %q) (%s, by the record), got %T %v", e.Actor, want.sentinel, want.name, err, faults.PublicText(err)))
	case want.alsoTransport && !errors.Is(err, workspace.ErrTransport):
		return c.fail("error-class", fmt.Sprintf("%s: a %s failure is a transport failure too (SPEC 5.2), got %T %v", e.Actor, want.name, err, faults.PublicText(err)))
	case want.notTransport && errors.Is(err, workspace.ErrTransport):
		return c.fail("error-class", fmt.Sprintf("%s: a %s failure is not a transport failure (SPEC 5.2 step 1), got errors.Is(err, ErrTransport) for %v", e.Actor, want.name, faults.PublicText(err)))
	}
	for _, other := range foreignSentinels {
		if other != want.sentinel && errors.Is(err, other) {
			return c.fail("error-class", fmt.Sprintf("%s: a %s failure (by the record) must not match %q, got errors.Is true for %T %v", e.Actor, want.name, other, err, faults.PublicText(err)))
		}
	}
	if want.text != "" {
		if text := err.Error(); text != want.text {
			return c.fail("error-text", fmt.Sprintf("%s: a %s failure must read %q (SPEC 6.3 step 5: the cursors its last fetch compared, by the record and the store model), got %q", e.Actor, want.name, want.text, text))
		}
		c.reach("error-text-cross-side")
	}
	return false
}

// foreignSentinels are the classes no planted failure carries: the
// caller's cancellation (the simulator cancels only where the cancel
// property judges) and the cross-side assertion (the workspace's own). An
// error of any other class that matches one of them answers errors.Is for
// a class it is not: an Is method that says yes too often.
var foreignSentinels = []error{context.Canceled, workspace.ErrCrossSideInvariant}

// cleanup reports whether op is teardown: closing a stream or a handle.
func cleanup(op faults.Op) bool {
	return op == faults.OpStreamClose || op == faults.OpEventClose || op == faults.OpClose
}

// firstFailure is the index in calls of the first failed call that is not a
// teardown, or -1.
func firstFailure(calls []faults.Call, upTo int) int {
	for i := range calls[:upTo] {
		if calls[i].Err != "" && !cleanup(calls[i].Op) {
			return i
		}
	}
	return -1
}
