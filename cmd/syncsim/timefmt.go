package main

import (
	"fmt"
	"math"
	"time"
)

// offset prints a simulated time as the trace does: seconds from the start
// of the run, signed, seven digits wide, to the millisecond
// (+0000034.200), so that a report's times line up with its trace lines.
func offset(d time.Duration) string {
	ms := d.Milliseconds()
	sign := "+"
	if ms < 0 {
		sign, ms = "-", -ms
	}
	return fmt.Sprintf("%s%07d.%03d", sign, ms/1000, ms%1000)
}

// secondsDuration turns JSON seconds back into a duration.
func secondsDuration(s float64) time.Duration {
	return time.Duration(math.Round(s * float64(time.Second)))
}
