package sim

import (
	"errors"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
)

// The store-error property (oracle.StoreErrorChecker): a store call that
// fails with an error the harness did not inject is a violation. The
// checker reads the intent store's record itself; the driver appends a
// StoreFailed event for the other calls that can fail so: every
// local-store call the workspace makes (localStoreCheck, at the call), and
// the host's own calls (List for the alarm, a planted Schedule, reading
// the local state at a restart and in the tail, the store probes).

// storeError is one store call that failed by itself.
type storeError struct {
	store   string // "intent store" or "local store"
	op      string
	backend string // "" for a call about no backend (List)
	actor   string // the operation that made the call, or "host"
	err     string
}

func (e *storeError) Error() string {
	return history.StoreErrorText(e.store, e.op, e.backend, e.actor, e.err)
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
// harness did not inject is a StoreFailed event (store-error), anything
// else, or such a failure when store-error is not judged, property.
func (h *Host) failStore(property string, err error) *Violation {
	var se *storeError
	if errors.As(err, &se) {
		h.storeFailed(se)
		if h.violated != nil {
			return h.violated
		}
	}
	return h.driverFailed(property, err.Error())
}

// storeFailed appends a store call that failed by itself.
func (h *Host) storeFailed(se *storeError) {
	actor := se.actor
	if actor == "host" {
		actor = ""
	}
	h.appendEvent(history.Event{Kind: history.StoreFailed, Actor: actor,
		Failure: &history.StoreFailure{Store: se.store, Op: se.op, Backend: se.backend, Err: se.err}})
}

// localStoreFailed appends a workspace call into the local store that
// failed by itself. It runs on the calling actor, which holds the baton,
// so the violation is the run's first even when the failure later
// surfaces elsewhere (a tail push that fails because of it).
func (h *Host) localStoreFailed(op, backend string, err error) {
	if errors.Is(err, faults.ErrInjected) {
		return
	}
	h.storeFailed(&storeError{store: "local store", op: op, backend: backend, actor: h.rt.Actor(), err: err.Error()})
}
