package sim

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/syncsim/syncsim/sim/oracle"
	"github.com/syncsim/syncsim/workspace"
)

// TestAPIProbeAcceptsTheWorkspace: the correct workspace passes every
// draw of the probe.
func TestAPIProbeAcceptsTheWorkspace(t *testing.T) {
	build := func(o workspace.RetryOptions) error {
		_, err := workspace.New(workspace.Options{
			Backends: []workspace.BackendConfig{{ID: "b0", Backend: nopBackend{}}},
			Clock:    NewClock(Epoch), Store: workspace.NewMemoryStore(), Retry: o,
		})
		return err
	}
	for seed := range uint64(200) {
		if d := checkRetryValidation(Stream(seed, "api-probe"), probeBuilds, build); d != "" {
			t.Fatalf("seed %d: %s", seed, d)
		}
	}
	if d := syncModeNames(workspace.SyncMode.String); d != "" {
		t.Fatal(d)
	}
}

// TestAPIProbeCatchesBrokenValidation: a validation that accepts
// fractional milliseconds, one that checks the options in another order
// and sync-mode names swapped are each reported.
func TestAPIProbeCatchesBrokenValidation(t *testing.T) {
	fractionalOK := func(o workspace.RetryOptions) error {
		if o.InitialDelay%time.Millisecond != 0 && o.InitialDelay > 0 {
			o.InitialDelay = time.Millisecond
		}
		if o.MaxDelay%time.Millisecond != 0 && o.MaxDelay > 0 {
			o.MaxDelay = time.Millisecond
		}
		if s := oracle.SpecRetryError(o); s != "" {
			return errors.New(s)
		}
		return nil
	}
	wrongOrder := func(o workspace.RetryOptions) error {
		if o.MaxAttempts < 0 {
			return errors.New("Workspace retry.maxAttempts must be a positive integer")
		}
		if s := oracle.SpecRetryError(o); s != "" {
			return errors.New(s)
		}
		return nil
	}
	for name, build := range map[string]func(workspace.RetryOptions) error{"fractional": fractionalOK, "order": wrongOrder} {
		found := false
		for seed := range uint64(600) {
			if d := checkRetryValidation(Stream(seed, "api-probe"), probeBuilds, build); d != "" {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s: the probe never reported the broken validation in 600 seeds", name)
		}
	}
	swapped := func(m workspace.SyncMode) string {
		if m == workspace.SyncRemote {
			return "none"
		}
		return "remote"
	}
	if d := syncModeNames(swapped); !strings.Contains(d, "SyncNone") {
		t.Errorf("swapped names: got %q, want a report on SyncNone", d)
	}
}

// checkRetryValidation runs the probe's builds with build and returns the
// first verdict oracle.APIChecker gives ("" for none).
func checkRetryValidation(r *rand.Rand, builds int, build func(workspace.RetryOptions) error) string {
	d := ""
	probeRetryOptions(r, builds, build, func(o workspace.RetryOptions, err error) bool {
		d = oracle.RetryOptionsVerdict(o, err)
		return d != ""
	})
	return d
}

// syncModeNames is the checker's verdict on the names name gives.
func syncModeNames(name func(workspace.SyncMode) string) string {
	return oracle.SyncModeNamesVerdict([2]string{name(workspace.SyncNone), name(workspace.SyncRemote)})
}

// nopBackend is never connected: the probe only builds workspaces.
type nopBackend struct{}

func (nopBackend) Connect(context.Context) (workspace.Handle, error) {
	return nil, errors.New("nopBackend: never connected")
}
