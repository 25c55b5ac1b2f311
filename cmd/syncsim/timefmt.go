package main

import (
	"math"
	"time"

	"github.com/syncsim/syncsim/sim/event"
)

// offset prints a simulated time as the trace does (event.Offset: seconds
// from the start of the run, fixed width, to the millisecond), so that a
// report's times line up with its trace lines.
func offset(d time.Duration) string { return event.Offset(d) }

// secondsDuration turns JSON seconds back into a duration.
func secondsDuration(s float64) time.Duration {
	return time.Duration(math.Round(s * float64(time.Second)))
}
