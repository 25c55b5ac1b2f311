package oracle

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// Each probe is held to the SPEC's rule; a refused build of the run's own
// workspace is reported; another property's driver failure is not api's.
func TestAPIChecker(t *testing.T) {
	frac := workspace.RetryOptions{InitialDelay: 1500 * time.Microsecond}
	bad := workspace.Budget{MaxEntries: 0, MaxBytes: 1}
	for _, tc := range []struct {
		name string
		e    history.Event
		want bool
	}{
		{"valid options built", history.Event{Kind: history.APIProbed, Probe: &history.Probe{What: "retry-options"}}, false},
		{"fractional delay refused", history.Event{Kind: history.APIProbed, Probe: &history.Probe{What: "retry-options", Retry: frac,
			Err: errors.New("Workspace retry.initialDelayMs must be a positive integer")}}, false},
		{"fractional delay built", history.Event{Kind: history.APIProbed, Probe: &history.Probe{What: "retry-options", Retry: frac}}, true},
		{"invalid budget counted", history.Event{Kind: history.APIProbed, Probe: &history.Probe{What: "budget", Budget: bad,
			Result: workspace.RetryResult{Status: workspace.RetryPending, Attempt: 2, Error: "x: Sync batch maxEntries must be a positive safe integer"}}}, false},
		{"invalid budget completed", history.Event{Kind: history.APIProbed, Probe: &history.Probe{What: "budget", Budget: bad,
			Result: workspace.RetryResult{Status: workspace.RetryComplete}}}, true},
		{"names right", history.Event{Kind: history.APIProbed, Probe: &history.Probe{What: "sync-mode-names", Names: [2]string{"none", "remote"}}}, false},
		{"names swapped", history.Event{Kind: history.APIProbed, Probe: &history.Probe{What: "sync-mode-names", Names: [2]string{"remote", "none"}}}, true},
		{"build refused", history.Event{Kind: history.DriverFailed, Driver: &history.DriverFailure{Property: "api", Detail: "refused"}}, true},
		{"another property's failure", history.Event{Kind: history.DriverFailed, Driver: &history.DriverFailure{Property: "durability", Detail: "x"}}, false},
	} {
		var rep recorder
		c := Lookup("api").New(nil)
		c.Observe(&tc.e, &rep)
		if fired := len(rep.violations) > 0; fired != tc.want {
			t.Errorf("%s: expected a violation %t, got %v", tc.name, tc.want, rep.violations)
		}
		if len(rep.violations) > 0 && !strings.HasPrefix(rep.violations[0], "api:") {
			t.Errorf("%s: expected property api, got %v", tc.name, rep.violations)
		}
	}
}
