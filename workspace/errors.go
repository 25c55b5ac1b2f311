package workspace

import (
	"errors"
	"strings"
)

// Sentinels for errors.Is. Every TransportError matches ErrTransport, every
// PreDispatchTransportError matches both ErrPreDispatchTransport and
// ErrTransport (it is a kind of transport error, as in SPEC 5.2), and every
// ExecutionLostError matches ErrExecutionLost. Fault injectors may wrap a
// sentinel directly (fmt.Errorf("crash: %w", ErrTransport)); the classifiers
// below recognise that too.
var (
	ErrTransport            = errors.New("workspace transport failure")
	ErrPreDispatchTransport = errors.New("workspace pre-dispatch transport failure")
	ErrExecutionLost        = errors.New("workspace execution lost")
)

// CodeExecutionLost is the Code of every ExecutionLostError.
const CodeExecutionLost = "EEXEC_LOST"

// TransportError says the backend's transport is gone (SPEC 5.2,
// WorkspaceTransportError). Msg is the whole message; Cause is kept for
// errors.Unwrap.
type TransportError struct {
	Msg   string
	Cause error
}

// Error returns Msg, the whole message.
func (e *TransportError) Error() string { return e.Msg }

// Unwrap returns Cause, the failure the transport reported.
func (e *TransportError) Unwrap() error { return e.Cause }

// Is makes errors.Is(err, ErrTransport) true: the error's class.
func (e *TransportError) Is(target error) bool { return target == ErrTransport }

// PreDispatchTransportError is a transport failure that provably happened
// before a side-effecting request was dispatched, so even a command spawn may
// be replayed (WorkspacePreDispatchTransportError). errors.As with a
// **TransportError target also matches it, mirroring the TypeScript subclass.
type PreDispatchTransportError struct {
	TransportError
}

// Error returns Msg, the whole message.
func (e *PreDispatchTransportError) Error() string { return e.Msg }

// Unwrap returns Cause, the failure the transport reported.
func (e *PreDispatchTransportError) Unwrap() error { return e.Cause }

// Is makes errors.Is true for both ErrPreDispatchTransport and
// ErrTransport: a pre-dispatch failure is a transport failure too.
func (e *PreDispatchTransportError) Is(target error) bool {
	return target == ErrPreDispatchTransport || target == ErrTransport
}

// As lets errors.As(err, &te) with te *TransportError see the embedded
// TransportError.
func (e *PreDispatchTransportError) As(target any) bool {
	if p, ok := target.(**TransportError); ok {
		*p = &e.TransportError
		return true
	}
	return false
}

// ExecutionLostError says the container runtime that owned an execution (or
// its pending post-command changes) was replaced (SPEC 7,
// WorkspaceExecutionLostError). Code is always CodeExecutionLost.
type ExecutionLostError struct {
	Code  string
	Msg   string
	Cause error
}

// Error returns Msg, the whole message.
func (e *ExecutionLostError) Error() string { return e.Msg }

// Unwrap returns Cause, the failure that revealed the lost runtime.
func (e *ExecutionLostError) Unwrap() error { return e.Cause }

// Is makes errors.Is(err, ErrExecutionLost) true: the error's class.
func (e *ExecutionLostError) Is(target error) bool { return target == ErrExecutionLost }

// postCommandSyncLabel is the execution label of the sync fence (SPEC 7).
const postCommandSyncLabel = "post-command sync"

func newExecutionLost(label string) *ExecutionLostError {
	return &ExecutionLostError{
		Code: CodeExecutionLost,
		Msg:  "Execution " + jsonString(label) + " was lost when its container runtime was replaced.",
	}
}

// assertRuntime is assertExecutionRuntime of SPEC 7: it passes when expected
// is nil or equals the handle's runtime id; a handle without one mismatches.
func assertRuntime(label string, expected *string, h Handle) error {
	if expected == nil {
		return nil
	}
	if got, ok := h.RuntimeID(); ok && got == *expected {
		return nil
	}
	return newExecutionLost(label)
}

// isExecutionLost reports whether err carries code EEXEC_LOST.
//
// NB: the TypeScript checks `err.code` on the outermost error only; Go walks
// the wrap chain with errors.As. The two agree for every error this package
// produces: no wrapper it builds puts an EEXEC_LOST error under a different
// outer error (runWithReconnect rethrows non-transport errors unchanged).
func isExecutionLost(err error) bool {
	var le *ExecutionLostError
	return errors.As(err, &le) && le.Code == CodeExecutionLost
}

// maxCauseDepth bounds the cause-chain walk of the classifiers (SPEC 5.2), so
// a self-referential chain cannot loop: an error and 7 causes below it. The
// levels are counted on the error the original would see, so the Go-only
// RPCError around a sync call's remote error is not one (walkCauses).
const maxCauseDepth = 8

// transportPatterns are the message phrases of SPEC 5.2 that mark a dead
// transport, matched case-insensitively.
var transportPatterns = []string{
	"rpc session was shut down",
	"rpc stub after it has been disposed",
	"rpc was canceled",
	"websocket is not open",
	"websocket closed",
	"socket hang up",
	"connection refused",
	"econnrefused",
	"econnreset",
	"network is unreachable",
	"container exited",
}

// preDispatchPatterns prove that no frame was sent.
var preDispatchPatterns = []string{"rpc stub after it has been disposed"}

// IsTransportFailure is isWorkspaceTransportFailure of SPEC 5.2: err or one
// of its causes, up to 8 levels deep, is a TransportError or
// PreDispatchTransportError (or the sentinel of either), or has a message
// matching one of the transport phrases. Joined errors (Unwrap() []error)
// are walked branch by branch, each branch one level deeper.
func IsTransportFailure(err error) bool {
	return walkCauses(err, 0, func(e error) bool {
		switch e.(type) {
		case *TransportError, *PreDispatchTransportError:
			return true
		}
		if e == ErrTransport || e == ErrPreDispatchTransport || levelIs(e, ErrTransport) {
			return true
		}
		return matchesAny(e.Error(), transportPatterns)
	})
}

// IsPreDispatchTransportFailure is the narrower classifier of SPEC 5.2: only
// a PreDispatchTransportError (or its sentinel) or the disposed-stub phrase.
func IsPreDispatchTransportFailure(err error) bool {
	return walkCauses(err, 0, func(e error) bool {
		if _, ok := e.(*PreDispatchTransportError); ok {
			return true
		}
		if e == ErrPreDispatchTransport || levelIs(e, ErrPreDispatchTransport) {
			return true
		}
		return matchesAny(e.Error(), preDispatchPatterns)
	})
}

// levelIs asks e's own Is method, without descending into its causes (the
// walk does that with its depth bound).
func levelIs(e, target error) bool {
	x, ok := e.(interface{ Is(error) bool })
	return ok && x.Is(target)
}

func walkCauses(err error, depth int, match func(error) bool) bool {
	if r, ok := err.(*RPCError); ok {
		// Transparent: the original driver rethrows a remote error as it
		// is, so the classifier meets the remote error itself, and its 8
		// levels are the remote error's. The Go wrapper only names the
		// call; counting it as a level would leave a class 7 causes down
		// in a sync call's error unseen where the original sees it.
		return walkCauses(r.Err, depth, match)
	}
	if err == nil || depth >= maxCauseDepth {
		return false
	}
	if match(err) {
		return true
	}
	switch u := err.(type) {
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if walkCauses(e, depth+1, match) {
				return true
			}
		}
		return false
	default:
		next := errors.Unwrap(err)
		if next == err {
			return false
		}
		return walkCauses(next, depth+1, match)
	}
}

func matchesAny(msg string, patterns []string) bool {
	lower := strings.ToLower(msg)
	for _, p := range patterns {
		if strings.Contains(lower, p) {
			return true
		}
	}
	return false
}
