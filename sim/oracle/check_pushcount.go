package oracle

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
)

// PushCountChecker is the checker of property push-count (SPEC 5.1):
// Workspace.Push returns the changes the runtime acknowledged to it, read
// from the runtime's record. The run's operations push inside an exec;
// the driver's own Push (the liveness tail's re-push) returns its count
// (TailReturned).
type PushCountChecker struct {
	names   []string
	records history.Records
}

// Reads: the liveness tail's actors.
func (c *PushCountChecker) Reads() history.Kinds { return history.Of(history.TailReturned) }

// Begin starts a run.
func (c *PushCountChecker) Begin(s history.Setup, r history.Records) {
	c.names, c.records = s.Backends, r
}

// Observe judges one push's count.
func (c *PushCountChecker) Observe(e *history.Event, rep history.Reporter) {
	calls := c.records.RuntimeSince(e.Backend, e.Op.StepMarks[e.Backend])
	if want := expectedPushCount(calls, e.Actor); e.Op.Pushed != want {
		rep.Violate("push-count", fmt.Sprintf("tail push %s: expected %d (the changes the runtime acknowledged), got %d", c.names[e.Backend], want, e.Op.Pushed))
	}
}

// expectedPushCount is what Workspace.Push must return for actor, read
// from the runtime's record: the changes of every push the runtime
// acknowledged to it after its last failed call, up to its last push. A
// failed attempt is replayed from the push cursor the store kept, so only
// the replay's pushes are the result's (SPEC 5.2 "always").
func expectedPushCount(calls []faults.Call, actor string) int {
	last := -1
	for i, c := range calls {
		if c.Actor == actor && c.Op == faults.OpPush && c.Err == "" {
			last = i
		}
	}
	n := 0
	for _, c := range calls[:last+1] {
		if c.Actor != actor {
			continue
		}
		switch {
		case c.Err != "":
			n = 0
		case c.Op == faults.OpPush:
			n += c.Changes
		}
	}
	return n
}
