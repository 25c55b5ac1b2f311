package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestGCPercent: the command runs its sweeps at gcPercent under a memory
// limit of heapPerCore per core, and a GOGC or GOMEMLIMIT the user set wins.
func TestGCPercent(t *testing.T) {
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)
	prevLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(prevLimit)
	for _, name := range []string{"GOGC", "GOMEMLIMIT"} {
		old, had := os.LookupEnv(name)
		defer func() {
			if had {
				os.Setenv(name, old)
			} else {
				os.Unsetenv(name)
			}
		}()
	}

	os.Unsetenv("GOGC")
	os.Unsetenv("GOMEMLIMIT")
	setGCPercent()
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("GOGC unset: expected the collector at %d%%, got %d%%", gcPercent, got)
	}
	want := int64(heapPerCore) * int64(runtime.GOMAXPROCS(0))
	if got := debug.SetMemoryLimit(math.MaxInt64); got != want {
		t.Errorf("GOMEMLIMIT unset: expected a memory limit of %d bytes, got %d", want, got)
	}
	os.Setenv("GOGC", "100")
	os.Setenv("GOMEMLIMIT", "1GiB") // the runtime read it at start; setGCPercent must leave the limit alone
	setGCPercent()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC=100 set by the user: expected 100%%, got %d%%", got)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != math.MaxInt64 {
		t.Errorf("GOMEMLIMIT set by the user: expected setGCPercent to leave the limit, got it set to %d", got)
	}
}
