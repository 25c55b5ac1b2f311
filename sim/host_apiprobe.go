package sim

import (
	"math/rand/v2"
	"time"

	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
	"github.com/syncsim/syncsim/workspace/planttest"
)

// The API probe (property api). A run builds its workspace once per host
// start with options the scenario fixed, all valid, and never reads the
// names the SPEC gives its enumerations, so the workspace's option
// validation (SPEC 2.2) and its sync-mode names (SPEC 4, 5.4: a handle's
// sync is "none" or not) would go unchecked by every run. At its first start
// (in one seed of probeOneIn) the host therefore builds probeBuilds
// workspaces of its own with retry options drawn from edge values (defaults,
// whole and fractional milliseconds, negatives, the 2^53−1 bound) and holds
// each outcome to the SPEC 2.2 rule as oracle.APIChecker restates it, never
// as the workspace states it. Like the store probe it draws from its own stream,
// makes no trace line unless it fails and connects nothing, so the rest of
// the run is the same with or without it.

// probeBuilds is how many workspaces one probe builds.
const probeBuilds = 2

// Drawn retry option values. Go's RetryOptions take a zero field as "not
// supplied" (the TypeScript's nullish): zero is the default, not an error.
var (
	probeDelays = []time.Duration{
		0, time.Millisecond, 250 * time.Millisecond, // valid
		1500 * time.Microsecond, time.Millisecond + time.Nanosecond, 999 * time.Microsecond, // fractional ms
		-time.Millisecond, -time.Nanosecond, // negative
	}
	probeAttempts = []int{0, 1, 5, -1, 1<<53 - 1, 1 << 53}
)

// drawProbeRetry draws one set of retry options from r.
func drawProbeRetry(r *rand.Rand) workspace.RetryOptions {
	return workspace.RetryOptions{
		InitialDelay: probeDelays[r.IntN(len(probeDelays))],
		MaxDelay:     probeDelays[r.IntN(len(probeDelays))],
		MaxAttempts:  probeAttempts[r.IntN(len(probeAttempts))],
	}
}

// probeRetryOptions builds one workspace per drawn option set with build
// and hands each outcome to record, until record says stop.
func probeRetryOptions(r *rand.Rand, builds int, build func(workspace.RetryOptions) error, record func(workspace.RetryOptions, error) (stop bool)) {
	for range builds {
		o := drawProbeRetry(r)
		if record(o, build(o)) {
			return
		}
	}
}

// probeAPI runs the API probe at the host's first start, recording each
// outcome for oracle.APIChecker.
func (h *Host) probeAPI() {
	r := Stream(h.cfg.Seed, "api-probe")
	build := func(o workspace.RetryOptions) error {
		_, err := planttest.New(workspace.Options{
			Backends: []workspace.BackendConfig{{ID: "syncsim-api-probe", Backend: h.backends.containers[0]}},
			Clock:    sutClock{h.clock, h},
			Store:    h.stores.store,
			Retry:    o,
		}, h.cfg.Mutant)
		return err
	}
	probeRetryOptions(r, probeBuilds, build, func(o workspace.RetryOptions, err error) bool {
		h.appendEvent(history.Event{Kind: history.APIProbed, Probe: &history.Probe{What: "retry-options", Retry: o, Err: err}})
		return h.violated != nil
	})
	if h.violated != nil {
		return
	}
	h.appendEvent(history.Event{Kind: history.APIProbed, Probe: &history.Probe{What: "sync-mode-names",
		Names: [2]string{workspace.SyncNone.String(), workspace.SyncRemote.String()}}})
}
