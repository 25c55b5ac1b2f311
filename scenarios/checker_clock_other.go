//go:build !linux

package scenarios

import "time"

// ThreadCPU is the CPU time of the calling OS thread; this platform has
// no such clock here, so it reads the process's (RunOptions.CheckerClock
// then also counts other threads' work during a call).
func ThreadCPU() time.Duration { return processCPU() }
