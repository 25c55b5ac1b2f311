package oracle

import (
	"strconv"

	"github.com/syncsim/syncsim/sim/history"
)

// StoreErrorChecker is the checker of property store-error: a store call
// that fails with an error the harness did not inject is a violation. An
// injected error wraps faults.ErrInjected and is an environment fact the
// model predicts the workspace's answer to; any other error is the store's
// own doing (a store that reports "no intent" as an error, a flaky
// connection, a Clear that is not idempotent) or the system under test's
// (an argument the store rejects), and reading it as a fault would let the
// model follow the system wherever it went. It reads the intent store's
// record (every call the workspace made) and the failures the driver saw
// at the local store and at the host's own calls.
type StoreErrorChecker struct{}

// Reads: the intent store's record and the store failures the driver saw.
func (c *StoreErrorChecker) Reads() history.Kinds {
	return history.Of(history.StoreCall, history.StoreFailed)
}

// Begin starts a run.
func (c *StoreErrorChecker) Begin(history.Setup, history.Records) {}

// Observe reads one event.
func (c *StoreErrorChecker) Observe(e *history.Event, rep history.Reporter) {
	switch e.Kind {
	case history.StoreCall:
		if call := e.Store; call.Uninjected {
			rep.Violate("store-error", history.StoreErrorText("intent store", string(call.Op), call.Backend, call.Actor+", call #"+strconv.Itoa(call.Seq), call.Err))
		}
	case history.StoreFailed:
		f := e.Failure
		actor := e.Actor
		if actor == "" {
			actor = "host"
		}
		rep.Violate("store-error", history.StoreErrorText(f.Store, f.Op, f.Backend, actor, f.Err))
	}
}
