package sim

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/faults"
)

// TestGuard: a panic in a guarded call becomes no-panic with its stack in
// Stacks, out of the detail; a call that returns passes its verdict on;
// and a panic after an earlier violation leaves that violation, stacks
// included, as the run's.
func TestGuard(t *testing.T) {
	h, err := NewHost(judged(Config{Seed: 1, Backends: 1, Profile: faults.Profile{}}))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if v := h.Guard(func() *Violation { return nil }); v != nil {
		t.Fatalf("a call that returned nil: %v", v)
	}
	v := h.Guard(func() *Violation { panic("store: nil row") })
	if v == nil || v.Property != "no-panic" || !strings.Contains(v.Detail, "store: nil row") || !strings.Contains(v.Stacks, "TestGuard") || strings.Contains(v.Detail, "goroutine") {
		t.Fatalf("a panic: got %+v", v)
	}
	h2, err := NewHost(judged(Config{Seed: 2, Backends: 1, Profile: faults.Profile{}}))
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	earlier := h2.fail("model", "an earlier verdict")
	if again := h2.Guard(func() *Violation { panic("close: twice") }); again != earlier || again.Property != "model" || again.Stacks != "" {
		t.Errorf("a later panic changed the run's violation: %+v", again)
	}
}
