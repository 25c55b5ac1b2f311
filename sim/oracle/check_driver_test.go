package oracle

import (
	"testing"

	"github.com/syncsim/syncsim/sim/history"
)

// The driver's failures are reported as recorded, whatever the selection.
func TestDriverChecker(t *testing.T) {
	j, err := Select([]string{None})
	if err != nil {
		t.Fatal(err)
	}
	var rep recorder
	j.Begin(history.Setup{}, nil)
	j.Observe(&history.Event{Kind: history.DriverFailed, Driver: &history.DriverFailure{Property: "no-deadlock", Detail: "actors parked forever: [a]"}}, &rep)
	if len(rep.violations) != 1 || rep.violations[0] != "no-deadlock: actors parked forever: [a]" {
		t.Fatalf("expected the recorded failure reported, got %v", rep.violations)
	}
}
