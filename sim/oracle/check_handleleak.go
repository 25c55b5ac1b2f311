package oracle

import "github.com/syncsim/syncsim/sim/history"

// HandleLeakChecker is the checker of property handle-leak (SPEC 5.3, 5.4; the
// rule is LeakWatch's): it follows every backend's connections from the
// runtime's record and, between steps, reports a backend with a connection
// still open though a later one was opened.
type HandleLeakChecker struct {
	names []string
	leaks LeakWatch
}

// Reads: host starts (a killed process's connections are forgotten), the
// runtime's calls, and the end of every step.
func (c *HandleLeakChecker) Reads() history.Kinds {
	return history.Of(history.HostStart, history.RuntimeCall, history.StepEnd)
}

// Begin starts a run.
func (c *HandleLeakChecker) Begin(s history.Setup, _ history.Records) {
	c.names = s.Backends
	c.leaks = LeakWatch{}
}

// Observe reads one event.
func (c *HandleLeakChecker) Observe(e *history.Event, rep history.Reporter) {
	switch e.Kind {
	case history.HostStart:
		c.leaks.HostStarted(e.Marks)
	case history.RuntimeCall:
		c.leaks.Note(e.Backend, *e.Runtime)
	case history.StepEnd:
		if detail, leaked := c.leaks.Leak(c.names); leaked {
			rep.Violate("handle-leak", detail)
		}
	}
}
