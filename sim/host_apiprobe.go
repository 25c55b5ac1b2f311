package sim

import (
	"math/rand/v2"
	"strconv"
	"time"

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
// each outcome to the SPEC 2.2 rule as this file restates it, never as the
// workspace states it. Like the store probe it draws from its own stream,
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

// specMaxSafe is Number.MAX_SAFE_INTEGER, SPEC 2.2's bound.
const specMaxSafe = 1<<53 - 1

// specRetryError is the error SPEC 2.2 says construction fails with for o
// ("" when it must succeed): each resolved value must be a positive safe
// integer of milliseconds (attempts), checked initialDelayMs, maxDelayMs,
// maxAttempts in that order, first failure wins.
func specRetryError(o workspace.RetryOptions) string {
	wholeMs := func(d time.Duration) bool {
		return d == 0 || d > 0 && d%time.Millisecond == 0 && int64(d/time.Millisecond) <= specMaxSafe
	}
	switch {
	case !wholeMs(o.InitialDelay):
		return "Workspace retry.initialDelayMs must be a positive integer"
	case !wholeMs(o.MaxDelay):
		return "Workspace retry.maxDelayMs must be a positive integer"
	case o.MaxAttempts < 0 || int64(o.MaxAttempts) > specMaxSafe:
		return "Workspace retry.maxAttempts must be a positive integer"
	}
	return ""
}

// drawProbeRetry draws one set of retry options from r.
func drawProbeRetry(r *rand.Rand) workspace.RetryOptions {
	return workspace.RetryOptions{
		InitialDelay: probeDelays[r.IntN(len(probeDelays))],
		MaxDelay:     probeDelays[r.IntN(len(probeDelays))],
		MaxAttempts:  probeAttempts[r.IntN(len(probeAttempts))],
	}
}

// checkRetryValidation builds one workspace per drawn option set with
// build and returns what disagrees with SPEC 2.2 ("" when nothing does).
func checkRetryValidation(r *rand.Rand, builds int, build func(workspace.RetryOptions) error) string {
	for range builds {
		o := drawProbeRetry(r)
		want := specRetryError(o)
		err := build(o)
		switch {
		case err == nil && want == "":
		case err == nil:
			return "retry options " + describeProbeRetry(o) + ": expected the workspace to be refused with \"" + want + "\" (SPEC 2.2), got one built"
		case want == "":
			return "retry options " + describeProbeRetry(o) + ": expected a workspace (SPEC 2.2 accepts them), got " + strconv.Quote(err.Error())
		case err.Error() != want:
			return "retry options " + describeProbeRetry(o) + ": expected the error \"" + want + "\" (SPEC 2.2, first failing option), got " + strconv.Quote(err.Error())
		}
	}
	return ""
}

func describeProbeRetry(o workspace.RetryOptions) string {
	return "initial=" + o.InitialDelay.String() + " max=" + o.MaxDelay.String() + " attempts=" + strconv.Itoa(o.MaxAttempts)
}

// checkSyncModeNames holds the sync modes' names to the SPEC's: a
// sync-less handle is "none" and a syncing one is anything else.
func checkSyncModeNames(name func(workspace.SyncMode) string) string {
	if got := name(workspace.SyncNone); got != "none" {
		return "SyncNone.String(): expected \"none\" (SPEC 4: handle.sync == \"none\"), got " + strconv.Quote(got)
	}
	if got := name(workspace.SyncRemote); got == "none" {
		return "SyncRemote.String(): expected a name other than \"none\" (a syncing handle), got \"none\""
	}
	return ""
}

// probeAPI runs the API probe at the host's first start.
func (h *Host) probeAPI() {
	r := Stream(h.cfg.Seed, "api-probe")
	build := func(o workspace.RetryOptions) error {
		_, err := planttest.New(workspace.Options{
			Backends: []workspace.BackendConfig{{ID: "syncsim-api-probe", Backend: h.containers[0]}},
			Clock:    sutClock{h.clock, h},
			Store:    h.store,
			Retry:    o,
		}, h.cfg.Mutant)
		return err
	}
	if d := checkRetryValidation(r, probeBuilds, build); d != "" {
		h.fail("api", d)
		return
	}
	if d := checkSyncModeNames(workspace.SyncMode.String); d != "" {
		h.fail("api", d)
	}
}
