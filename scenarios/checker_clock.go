package scenarios

import "time"

// clockBase anchors CheckerTime's readings.
var clockBase = time.Now()

// CheckerTime is the clock that costs a checker's calls
// (RunOptions.CheckerClock): the monotonic clock, read through the
// vDSO in tens of nanoseconds. A per-thread CPU clock would leave out
// what the machine's other work steals, but costs a system call a read
// here and reads another thread's time whenever the goroutine moves
// between threads, which made it useless for calls of a microsecond. A
// measuring mode only: no reading reaches a decision of a run.
func CheckerTime() time.Duration { return time.Since(clockBase) }
