package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestGCPercent: the command runs its sweeps at gcPercent, and a GOGC the
// user set wins.
func TestGCPercent(t *testing.T) {
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)
	old, had := os.LookupEnv("GOGC")
	defer func() {
		if had {
			os.Setenv("GOGC", old)
		} else {
			os.Unsetenv("GOGC")
		}
	}()

	os.Unsetenv("GOGC")
	setGCPercent()
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("GOGC unset: expected the collector at %d%%, got %d%%", gcPercent, got)
	}
	os.Setenv("GOGC", "100")
	setGCPercent()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC=100 set by the user: expected 100%%, got %d%%", got)
	}
}
