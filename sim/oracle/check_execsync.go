package oracle

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// maxConnectsPerSync is SPEC 11.10: one logical sync operation makes at
// most two connection attempts (the call and one reconnect retry).
const maxConnectsPerSync = 2

// maxConnectsPerExec bounds an exec's three sync operations (pre-exec push,
// spawn, post-command pull or settle), each with its own reconnect retry.
const maxConnectsPerExec = 3 * maxConnectsPerSync

// SyncRecordChecker judges the SPEC section 11 invariants of a finished
// exec or retry that the runtime's own record settles without asking the
// system under test what it decided: how many connections it opened
// (connect-bound, 11.10), whether a deferred exec pulled (defer-never-pulls,
// 11.11), whether a wait exec that reports complete pulled at all, and
// not through a handle that does not sync (wait-pulls, SPEC 3.2, 4), and
// how far pullOnce read each stream it opened (pull-to-end, SPEC 6.3 step
// 7). "After the command" is after the actor's last exec call: a spawn
// replayed after a pre-dispatch failure (SPEC 5.3) is still the command.
type SyncRecordChecker struct {
	want     func(string) bool
	syncNone int
	rep      history.Reporter // the Reporter of the event being observed
}

// Reads: finished operations.
func (c *SyncRecordChecker) Reads() history.Kinds { return history.Of(history.OpReturned) }

// Begin starts a run.
func (c *SyncRecordChecker) Begin(s history.Setup, _ history.Records) { c.syncNone = s.SyncNone }

// Observe judges one finished exec or retry; a cancelled one is property
// cancel's.
func (c *SyncRecordChecker) Observe(e *history.Event, rep history.Reporter) {
	if e.Op.Cancelled {
		return
	}
	c.rep = rep
	report := func(property, detail string) {
		if c.want == nil || c.want(property) {
			rep.Violate(property, detail)
		}
	}
	switch e.Op.Kind {
	case "retry", "pull":
		if n := countOp(e.Op.Calls, faults.OpConnect); n > maxConnectsPerSync {
			report("connect-bound", fmt.Sprintf("%s: expected at most %d connection attempts in one %s, got %d", e.Actor, maxConnectsPerSync, e.Op.Kind, n))
			return
		}
		if e.Op.Kind == "pull" {
			c.pulledToEnd(e, e.Op.Calls, report)
		}
	case "exec":
		c.exec(e, report)
	}
}

func (c *SyncRecordChecker) exec(e *history.Event, report func(property, detail string)) {
	op, calls := e.Op, e.Op.Calls
	after := lastExecCall(calls) + 1
	if after == 0 {
		return // the command never started: nothing after it to judge
	}
	if n := countOp(calls, faults.OpConnect); n > maxConnectsPerExec {
		report("connect-bound", fmt.Sprintf("%s: expected at most %d connection attempts in one exec, got %d", e.Actor, maxConnectsPerExec, n))
		return
	}
	if n := countOp(calls[after:], faults.OpConnect); n > maxConnectsPerSync {
		report("connect-bound", fmt.Sprintf("%s: expected at most %d connection attempts after the command, got %d", e.Actor, maxConnectsPerSync, n))
		return
	}
	pulls := faults.SummarisePulls(calls[after:], e.Actor)
	if op.Mode == workspace.SyncDefer {
		if len(pulls) > 0 {
			report("defer-never-pulls", fmt.Sprintf("%s: a deferred exec fetched after its command (SPEC 11.11)", e.Actor))
		}
		return
	}
	if e.Backend == c.syncNone {
		// SPEC 4.1 step 2: a sync-less handle's pull is an empty complete
		// batch, with no remote sync call at all.
		c.rep.Reach("sync-none-exec")
		if len(pulls) > 0 {
			report("wait-pulls", fmt.Sprintf("%s: fetched through a handle that does not sync (SPEC 4, sync \"none\")", e.Actor))
		}
		return
	}
	if op.Err == nil && op.Exec.Sync.Status == workspace.SyncComplete && !anyFetched(pulls) {
		report("wait-pulls", fmt.Sprintf("%s: sync complete without a post-command fetch (SPEC 3.2)", e.Actor))
		return
	}
	c.pulledToEnd(e, calls[after:], report)
}

// pulledToEnd is pull-to-end: pullOnce (an explicit pull, a wait exec's
// post-command pull) reads every stream it opens to its end (SPEC 6.3
// step 7) unless the stream fails.
func (c *SyncRecordChecker) pulledToEnd(e *history.Event, calls []faults.Call, report func(property, detail string)) {
	for _, p := range faults.SummarisePulls(calls, e.Actor) {
		if p.ClosedEarly && p.Entries > 0 {
			report("pull-to-end", fmt.Sprintf("%s: pullOnce closed stream of fetch #%d after %d entries, before its end (SPEC 6.3)", e.Actor, p.FetchSeq, p.Entries))
			return
		}
	}
}

// countOp counts the calls of kind op.
func countOp(calls []faults.Call, op faults.Op) int {
	n := 0
	for i := range calls {
		if calls[i].Op == op {
			n++
		}
	}
	return n
}

// lastExecCall is the index in calls of the actor's last exec call, or -1.
func lastExecCall(calls []faults.Call) int {
	for i := len(calls) - 1; i >= 0; i-- {
		if calls[i].Op == faults.OpExec {
			return i
		}
	}
	return -1
}

// anyFetched reports whether one of the pulls' fetches succeeded.
func anyFetched(pulls []faults.PullRecord) bool {
	for _, p := range pulls {
		if p.FetchErr == "" {
			return true
		}
	}
	return false
}
