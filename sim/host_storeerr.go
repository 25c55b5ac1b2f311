package sim

import (
	"errors"
	"strconv"

	"github.com/syncsim/syncsim/faults"
)

// The store-error property: a store call that fails with an error the
// harness did not inject is a violation. An injected error wraps
// faults.ErrInjected and is an environment fact the model predicts the
// workspace's answer to; any other error is the store's own doing (a store
// that reports "no intent" as an error, a flaky connection, a Clear that is
// not idempotent) or the SUT's (an argument the store rejects), and reading
// it as a fault would let the model follow the SUT wherever it went. It is
// checked on every call: every intent-store call the workspace makes (the
// fault wrapper's record, drained after every run of the actors), every
// local-store call the workspace makes (localStoreCheck, at the call), and
// the host's own calls (List for the alarm, a planted Schedule, reading the
// local state at a restart and in the tail).

// storeError is one store call that failed by itself.
type storeError struct {
	store   string // "intent store" or "local store"
	op      string
	backend string // "" for a call about no backend (List)
	actor   string // the operation that made the call, or "host"
	err     string
}

func (e *storeError) Error() string {
	call := e.store + " " + e.op
	if e.backend != "" {
		call += " " + e.backend
	}
	return call + " (by " + e.actor + ") failed, not injected by the harness: " + strconv.Quote(e.err)
}

// hostStoreError wraps an error of a store call the host made itself;
// nil, and an injected error, stay as they are.
func hostStoreError(store, op, backend string, err error) error {
	if err == nil || errors.Is(err, faults.ErrInjected) {
		return err
	}
	return &storeError{store: store, op: op, backend: backend, actor: "host", err: err.Error()}
}

// failStore is fail for an error that may come from a store call: one the
// harness did not inject breaks store-error, anything else property.
func (h *Host) failStore(property string, err error) *Violation {
	var se *storeError
	if errors.As(err, &se) {
		return h.fail("store-error", se.Error())
	}
	return h.fail(property, err.Error())
}

// checkStoreCall breaks store-error when the recorded intent-store call
// failed by itself.
func (h *Host) checkStoreCall(call faults.StoreCall) {
	if !call.Uninjected {
		return
	}
	h.fail("store-error", (&storeError{
		store: "intent store", op: string(call.Op), backend: call.Backend,
		actor: call.Actor + ", call #" + strconv.Itoa(call.Seq), err: call.Err,
	}).Error())
}

// localStoreFailed breaks store-error for a workspace call into the local
// store that failed by itself. It runs on the calling actor, which holds
// the baton, so the violation is the run's first even when the failure
// later surfaces elsewhere (a tail push that fails because of it).
func (h *Host) localStoreFailed(op, backend string, err error) {
	if errors.Is(err, faults.ErrInjected) {
		return
	}
	actor := h.rt.Actor()
	if actor == "" {
		actor = "host"
	}
	h.fail("store-error", (&storeError{store: "local store", op: op, backend: backend, actor: actor, err: err.Error()}).Error())
}
