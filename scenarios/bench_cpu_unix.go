//go:build unix

package scenarios

import (
	"syscall"
	"time"
)

// cpuTimeSource says where processCPU reads.
const cpuTimeSource = "getrusage(RUSAGE_SELF): user+sys CPU of every thread of the process, GC included"

// processCPU is the user and system CPU time of the whole process so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
