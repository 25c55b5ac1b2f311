package faults

import (
	"errors"
)

// ErrInjected is the sentinel every planted fault wraps: errors.Is(err,
// ErrInjected) tells a planted failure from a bug.
var ErrInjected = errors.New("injected fault")

// ErrDisposed is returned by calls on a handle, stream or event stream the
// client already closed. It is not injected: it is the client's own doing.
// Its text is the pre-dispatch transport phrase of SPEC 5.2, because a call
// on a disposed stub never reaches the remote.
var ErrDisposed = errors.New("rpc stub after it has been disposed")

// InjectedError is a planted failure of kind Kind.
type InjectedError struct {
	Kind Kind
	Msg  string
	// Credential is fake credential text planted after Msg (see Secrets);
	// "" when none was planted.
	Credential string
	// Leading puts Credential first, so the text begins with it: a
	// redactor that wants a character before a keyword or a Bearer (a word
	// boundary read as "after a non-word character") keeps it there.
	Leading bool
	// class is how SPEC 5.2 must classify the failure, fixed when it was
	// made (its shape may then change Msg).
	class errClass
	// unclassed: a transport failure shaped so that its class sits past
	// the classifiers' bound (errshape.go), so SPEC 5.2 gives it none.
	unclassed bool
}

// unclassedError reports whether err carries a transport failure whose
// class its shape put past the classifiers' bound.
func unclassedError(err error) bool {
	var ie *InjectedError
	return errors.As(err, &ie) && ie.unclassed
}

// classOfError is the class of the injected failure err carries (classNone
// for an error the harness did not inject, such as a done context).
func classOfError(err error) errClass {
	var ie *InjectedError
	if errors.As(err, &ie) {
		return ie.class
	}
	return classNone
}

// Error reads "injected <kind>: <msg>", then "; <credential>" when one was
// planted, or "<credential> | injected <kind>: <msg>" when it leads.
func (e *InjectedError) Error() string {
	// Concatenation, not fmt: every planted failure's text is built here,
	// often several times over (wrapped, classified, redacted).
	if e.Credential == "" {
		return "injected " + e.Kind.String() + ": " + e.Msg
	}
	if e.Leading {
		return e.Credential + " | injected " + e.Kind.String() + ": " + e.Msg
	}
	return "injected " + e.Kind.String() + ": " + e.Msg + "; " + e.Credential
}

// Unwrap returns ErrInjected.
func (e *InjectedError) Unwrap() error { return ErrInjected }

// The messages of planted failures. The transport ones each contain a
// phrase of the workspace's transport classifier (SPEC 5.2); only the
// pre-dispatch one contains the pre-dispatch phrase. Settle and store
// failures contain none: they must not be retried as transport failures.
const (
	msgConnect      = "connection refused"
	msgPreDispatch  = "rpc stub after it has been disposed"
	msgPostDispatch = "websocket closed after the call was dispatched"
	msgMidStream    = "websocket closed mid-stream"
	msgCrashed      = "container exited"
	msgCrashConnect = "connection refused: container exited"
	msgRestarted    = "websocket closed: container process was replaced"
	msgBroken       = "rpc session was shut down"
	msgSettle       = "settle: pre-fetch reconcile hook failed"
	msgStore        = "scheduler store unavailable"
	msgRPC          = "fetchChanges failed: backend unavailable"
	msgLocal        = "local store: disk I/O error"
)

// faultOf returns the kind of the InjectedError in err's chain, or NoFault.
func faultOf(err error) Kind {
	var ie *InjectedError
	if errors.As(err, &ie) {
		return ie.Kind
	}
	return NoFault
}
