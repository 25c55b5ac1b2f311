package sim

import (
	"fmt"
	"runtime/debug"
)

// Between steps the host itself calls system-under-test code on the
// driver's goroutine, outside any actor: the checks read the local store
// (cursors, listings) and the intent store, a restart opens them and the
// run's end closes them. A panic there is the system's like a panic in an
// actor, but nothing caught it: it ended the whole process, so one broken
// store stopped a sweep of a million seeds instead of failing one seed
// (a store whose push-cursor read dereferences a missing row did, once the
// store probe no longer ran at every seed's start).

// Guard runs fn, a driver's call into the host (Step, Advance, Liveness,
// a restart, Close), and turns a panic in it into the run's no-panic
// violation, the stack kept in Stacks and out of the detail (its goroutine
// numbers and addresses differ between runs of one seed). The host is not
// usable for more steps afterwards; Close still releases it. A panic of
// the host's own code is reported the same way: the stack tells which.
func (h *Host) Guard(fn func() *Violation) (v *Violation) {
	defer func() {
		if p := recover(); p != nil {
			// After an earlier violation (a close that panics at the end
			// of a failed run) the run keeps that one, stacks and all.
			earlier := h.violated != nil
			v = h.driverFailed("no-panic", fmt.Sprintf("panic outside any actor, in a call the host made between steps (a local or intent store read, open or close, or the host's own checks): %v", p))
			if !earlier {
				v.Stacks = string(debug.Stack())
			}
		}
	}()
	return fn()
}
