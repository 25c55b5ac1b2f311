//go:build linux

package scenarios

import (
	"time"

	"golang.org/x/sys/unix"
)

// ThreadCPU is the CPU time of the calling OS thread: the clock that
// costs a checker's calls (RunOptions.CheckerClock), which run on the
// thread of the actor or driver that appended the event. Zero when the
// clock cannot be read.
func ThreadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
