package sim

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/faults"
)

// TestGateWaitAcrossBackends: an operation's actor that parks on a gate
// another backend's operation made is property fifo; the same backend, or
// an actor or gate of no backend, is not.
func TestGateWaitAcrossBackends(t *testing.T) {
	for _, tc := range []struct {
		waiter, maker string
		fails         bool
	}{
		{"#2.exec.b1", "#1.exec.b0", true},
		{"#2.exec.b0", "#1.retry.b0", false},
		{"#5.timer", "#1.exec.b0", false},
		{"#2.exec.b1", "", false},
		{"#2.alarm.b1", "#5.timer", false},
	} {
		h, err := NewHost(judged(Config{Seed: 1, Backends: 2, Profile: faults.Profile{}}))
		if err != nil {
			t.Fatal(err)
		}
		h.noteGateWait(tc.waiter, tc.maker)
		v := h.violated
		if (v != nil) != tc.fails {
			t.Errorf("%s waits on %s's gate: expected a violation %t, got %v", tc.waiter, tc.maker, tc.fails, v)
		}
		if v != nil && (v.Property != "fifo" || !strings.Contains(v.Detail, "never wait for each other")) {
			t.Errorf("expected property fifo, got %s: %s", v.Property, v.Detail)
		}
		h.Close()
	}
}
