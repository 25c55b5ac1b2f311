package oracle

import "github.com/syncsim/syncsim/sim/history"

// DriverChecker reports the failures of the run itself that the driver
// records (history.DriverFailed): no-panic, no-deadlock, livelock,
// timer-escape and hang. The driver sees them — it holds the goroutines,
// the runtime's scheduling, the clock and the watchdog — and judges
// nothing else about them: whether a failure is one is not in question, so the checker's
// whole job is to report it, as every other property is reported.
type DriverChecker struct{}

// Reads: the driver's failures.
func (DriverChecker) Reads() history.Kinds { return history.Of(history.DriverFailed) }

// Begin starts a run.
func (DriverChecker) Begin(history.Setup, history.Records) {}

// Observe reports one failure of the run itself; a failed host call that
// breaks another property is that property's checker's to report.
func (DriverChecker) Observe(e *history.Event, rep history.Reporter) {
	if p := Lookup(e.Driver.Property); p != nil && p.Basis == Driver {
		rep.Violate(e.Driver.Property, e.Driver.Detail)
	}
}
