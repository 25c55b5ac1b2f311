package scenarios

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/workspace"
)

// pushCursorPanics is a local store whose push-cursor read dereferences a
// row it does not have (a kill-matrix mutant of the real stores): the host
// meets it in an actor (a push), in its store probe at the first start, and
// between steps, where its own checks read the cursor outside any actor.
type pushCursorPanics struct{ *workspace.MemoryStore }

func (pushCursorPanics) PushCursor(string) (workspace.Cursor, error) {
	var row *workspace.Cursor
	return *row, nil
}

// TestDriverPanicIsAViolation: a store that panics when the host itself
// calls it between steps fails its seed with no-panic, as a panic in an
// actor does, instead of ending the process (and with it a whole sweep).
// Seed 3 skips the store probe and meets the panic in the checks first.
func TestDriverPanicIsAViolation(t *testing.T) {
	driver := 0
	for seed := uint64(1); seed <= 12; seed++ {
		v := runWithLocalStore(t, seed, pushCursorPanics{workspace.NewMemoryStore()})
		if v == nil || v.Property != "no-panic" {
			t.Fatalf("seed %d: want no-panic, got %v", seed, v)
		}
		if strings.Contains(v.Detail, "in a call the host made between steps") {
			driver++
			if v.Stacks == "" || strings.Contains(v.Detail, "goroutine ") {
				t.Errorf("seed %d: the stack belongs in Stacks, not the detail: %q", seed, v.Detail)
			}
		}
	}
	if driver == 0 {
		t.Fatal("no seed of 12 met the panic between steps: the test no longer covers the driver's calls")
	}
}
