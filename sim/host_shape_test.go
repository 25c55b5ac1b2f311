package sim

import (
	"reflect"
	"testing"
)

// The Host keeps the world and groups its state by concern (backendState,
// hostStores, alarmState, ...): a new piece of state belongs in its
// concern's type, not loose on the Host, where the 84 fields it once had
// made every property a read of the whole driver. The bound is the one the
// redesign set.
func TestHostGroupsItsStateByConcern(t *testing.T) {
	const maxFields = 25
	if n := reflect.TypeFor[Host]().NumField(); n > maxFields {
		t.Fatalf("sim.Host has %d fields, over %d: put the new state in the type of its concern (host.go)", n, maxFields)
	}
}
