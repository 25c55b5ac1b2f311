package workspace

import (
	"errors"
	"fmt"
)

// ErrCrossSideInvariant matches every CrossSideError: the remote reports
// that it has applied less of our pushes than our push cursor says it
// acknowledged (SPEC 6.3 step 5, 6.4 step 5, 6.5).
var ErrCrossSideInvariant = errors.New("cross-side invariant violated")

// CrossSideError is the cross-side assertion failure. Its text is exactly
// the TypeScript message, because result error strings are compared with
// the model's verbatim.
type CrossSideError struct {
	AppliedPushCursor Cursor
	PushCursor        Cursor
}

// Error returns the TypeScript message, with both cursors as
// scheduler.Cursor prints them.
func (e *CrossSideError) Error() string {
	return fmt.Sprintf("cross-side invariant violated: appliedPushCursor (%s) < pushCursor (%s)",
		e.AppliedPushCursor, e.PushCursor)
}

// Is makes errors.Is(err, ErrCrossSideInvariant) true.
func (e *CrossSideError) Is(target error) bool { return target == ErrCrossSideInvariant }

// RPCError wraps an error returned by the remote's SyncRPC (a call or a
// stream read). Its text is the remote error's text unchanged: the
// TypeScript driver rethrows remote errors as they are, and the retry
// results carry that text (SPEC 9 R7 "still unavailable"). Unwrap keeps the
// class (transport, pre-dispatch, EEXEC_LOST) visible to errors.Is/As and to
// IsTransportFailure; Op says which call failed, for traces.
type RPCError struct {
	Op  string // "fetchChanges", "fetchChanges.next", "push", "watermarks"
	Err error
}

// Error returns the remote error's text unchanged.
func (e *RPCError) Error() string { return e.Err.Error() }

// Unwrap returns the remote error, so its class stays visible.
func (e *RPCError) Unwrap() error { return e.Err }

func rpcErr(op string, err error) error {
	if err == nil {
		return nil
	}
	return &RPCError{Op: op, Err: err}
}
