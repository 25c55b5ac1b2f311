package sim

import (
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/event"
)

// Times print as package event prints them (event.Offset): seconds since
// the start of the run, to the millisecond.

// at prints t as a time since the run's start.
func (h *Host) at(t time.Time) string { return event.Offset(t.Sub(h.t0)) }

// appendAt appends t as a time since the run's start.
func (h *Host) appendAt(b []byte, t time.Time) []byte { return event.AppendOffset(b, t.Sub(h.t0)) }

// intentText prints in as scheduler.Intent.String does, but with its
// NotBefore as a time since the run's start.
func (h *Host) intentText(in scheduler.Intent) string {
	return string(faults.AppendIntent(nil, in, h.appendAt))
}
