package sim

import (
	"errors"
	"fmt"
	"runtime/debug"
)

// The first host start runs system-under-test code on the driver's own
// goroutine, outside any actor: it opens the stores, probes the local store
// and the workspace API, and builds the workspace. A failure there is the
// system's, not a broken setup, whenever the host gave it nothing wrong:
// a store that cannot open its own fresh file, a workspace that refuses
// the valid options the host built, a panic in any of them. Those become
// the run's first violation (NewHost returns the host with it; the run
// makes no step), so that a sweep reports them against a seed like any
// other bug instead of stopping with a setup error. A store that fails to
// open in a run without a directory (Config.Dir "") is still a setup error:
// a file-backed store was given nowhere to live.

// buildError is workspace.New refusing the options the host built.
type buildError struct {
	start int
	err   error
}

func (e *buildError) Error() string {
	return fmt.Sprintf("sim: host start %d: workspace.New refused the host's options (all valid: backends with distinct ids, a clock, the run's retry options and stores): %v", e.start, e.err)
}

func (e *buildError) Unwrap() error { return e.err }

// firstStart is start for NewHost: an error of the system under test (a
// store's own open failure, a refused build, a panic) becomes the run's
// first violation; only an error of the setup is returned.
func (h *Host) firstStart() (err error) {
	defer func() {
		if p := recover(); p != nil {
			// The stack goes to Stacks, never the detail: its goroutine
			// numbers and addresses differ between runs of the same seed.
			h.driverFailed("no-panic", fmt.Sprintf("panic at host start 1, outside any actor: %v", p)).Stacks = string(debug.Stack())
			err = nil
		}
	}()
	err = h.start()
	var se *storeError
	var be *buildError
	var ae *alarmStartError
	switch {
	case err == nil:
	case errors.As(err, &ae):
		// A store listing that failed by itself is store-error, the
		// Waker's own error is the alarm's (a DriverFailed its checker
		// reports).
		h.failStore("alarm", ae.err)
		return nil
	case errors.As(err, &se) && h.cfg.Dir != "":
		h.storeFailed(se) // oracle.StoreErrorChecker reports it
		return nil
	case errors.As(err, &be):
		h.driverFailed("api", be.Error())
		return nil
	}
	return err
}
