package workspace

import "context"

// retryPolicy decides whether a transport failure after dispatch may be
// replayed (SPEC 5.2).
type retryPolicy int

const (
	// policyAlways replays idempotent operations (push, pull, pullBatch).
	policyAlways retryPolicy = iota
	// policyPreDispatch replays only failures that provably happened before
	// dispatch (command spawn).
	policyPreDispatch
)

// reconnectPasses is SPEC 5.2's bound: one try and one reconnect retry.
const reconnectPasses = 2

// runWithReconnect is #runWithReconnect of SPEC 5.2. Each pass gets a handle
// (connecting if needed) and runs op on it. A transport failure invalidates
// that handle and, if the policy allows, replays once on a new one.
func runWithReconnect[T any](ctx context.Context, w *Workspace, id, operation string, policy retryPolicy, op func(Handle) (T, error)) (T, error) {
	var zero T
	var first error
	for pass := range reconnectPasses {
		h, err := w.handleFor(ctx, id)
		if err == nil {
			var v T
			if v, err = op(h); err == nil {
				return v, nil
			}
		} else {
			h = nil
		}
		if !IsTransportFailure(err) {
			if first != nil && isExecutionLost(err) {
				return zero, &ExecutionLostError{
					Code:  CodeExecutionLost,
					Msg:   safeErrorMessage(err) + " Original transport failure: " + safeErrorMessage(first),
					Cause: first,
				}
			}
			return zero, err // a non-transport error leaves the handle cached
		}
		if h != nil {
			w.invalidateHandle(id, h)
		}
		// A failed connect never dispatched anything; after dispatch only
		// "always" or a provably pre-dispatch failure makes replay safe.
		if h != nil && policy != policyAlways && !IsPreDispatchTransportFailure(err) {
			return zero, &TransportError{
				Msg: "Workspace backend " + jsonString(id) + ": " + operation +
					" transport failed; the command may have started and was not replayed: " +
					truncateUTF16(safeErrorMessage(err), 240),
				Cause: err,
			}
		}
		if pass == 0 {
			first = err
			continue
		}
		return zero, &TransportError{
			Msg: "Workspace backend " + jsonString(id) + ": " + operation +
				" failed after 1 reconnect retry: initial=" + truncateUTF16(safeErrorMessage(first), 160) +
				"; last=" + truncateUTF16(safeErrorMessage(err), 240),
			Cause: err,
		}
	}
	panic("unreachable: runWithReconnect loop ended without returning")
}
