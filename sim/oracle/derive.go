package oracle

import (
	"context"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// This file reads the runtime's own record of one operation and turns it
// into the facts the model needs: how a pull ended, which runtime ran a
// command, what a deferred capture saw. It never looks at what the SUT
// returned: the model's verdict must not be derived from the verdict it
// judges.

// pullOutcome walks an actor's calls (after from, a position in them) and
// reports how its last sync attempt ended. A later event overrides an
// earlier one, because a failed pass is followed by the reconnect pass.
// fence is the runtime id the pull must match (nil: no fence).
//
// A pull that neither connected nor took a connection's sync channel
// (OpSync) failed: it never held a handle. Both passes then went without
// one: the actor shared another actor's connect (SPEC 5.4) and that
// connect failed, or a local store read failed first. The runtime records
// every handle an actor uses (RuntimeID, Sync and the calls on it), so the
// outcome comes from that record, never from the SUT's store calls; the
// store calls are then checked against it. A pull that took the channel
// and made no remote call found its cursor already at the target (SPEC
// 6.4 step 1): complete.
//
// A fetch on a connection reporting another runtime than the fence is a
// lost runtime whatever happens next: the correct code never fetches there,
// and a variant that does must still be judged against "lost".
//
// A batch stopped by its budget is progress; where it stopped is
// predicted from the entries the remote served and the budget (planBatch),
// not read off the SUT's last apply.
func pullOutcome(calls []faults.Call, fence *string, budget workspace.Budget, wall wallBudget) model.Pull {
	if !usedConnection(calls) {
		return model.Pull{Kind: model.PullFailed}
	}
	out := model.Pull{Kind: model.PullComplete}
	lost := false
	var fetch faults.Call // the last fetch
	served := map[int][]servedEntry{}
	ended := map[int]bool{} // streams that reached EOF or failed
	for _, c := range calls {
		switch {
		case c.Op == faults.OpClose || c.Op == faults.OpEventClose:
			// Closing a handle is clean-up, not part of the outcome.
		case c.Err != "" && c.Op != faults.OpStreamClose:
			out = model.Pull{Kind: model.PullFailed}
			if c.Lost {
				// The runtime raised EEXEC_LOST itself: lost for a fenced
				// intent, an ordinary failure for one without (the model
				// decides, SPEC 4).
				out = model.Pull{Kind: model.PullLost}
			}
			if c.Stream != 0 {
				ended[c.Stream] = true
			}
		case c.Op == faults.OpConnect:
			out = model.Pull{Kind: model.PullComplete} // a new pass starts on a fresh handle
		case c.Op == faults.OpSync:
			// A pass holds a handle; a lost fence of this pass stands.
			if out.Kind != model.PullLost {
				out = model.Pull{Kind: model.PullComplete}
			}
		case c.Op == faults.OpRuntimeID:
			if fence != nil && (!c.HasRuntimeID || c.RuntimeID != *fence) {
				out = model.Pull{Kind: model.PullLost}
			} else {
				out = model.Pull{Kind: model.PullComplete}
			}
		case c.Op == faults.OpFetch:
			fetch = c
			out = model.Pull{Kind: model.PullComplete, Current: c.CurrentCursor}
			if fence != nil && (!c.HasRuntimeID || c.RuntimeID != *fence) {
				lost = true
			}
		case c.Op == faults.OpStreamNext:
			if c.EOF {
				ended[c.Stream] = true
			} else if c.Entry != nil {
				served[c.Stream] = append(served[c.Stream], servedOf(&c))
			}
		case c.Op == faults.OpStreamClose:
			// A stream closed before its end after serving entries is a
			// budget stop; closed with nothing read it is an early
			// complete, or a divergence reset that a new fetch follows.
			if es := served[c.Stream]; len(es) > 0 && !ended[c.Stream] {
				stop := es[len(es)-1].cursor
				if plan := planBatch(es, budget); plan.cursor != nil {
					stop = *plan.cursor
				}
				if !stop.Less(out.Current) {
					// The budget stopped it on the fetch's target itself
					// (a target with a path): complete (SPEC 6.4 step 8).
					out = model.Pull{Kind: model.PullComplete, Current: out.Current}
					break
				}
				out = model.Pull{Kind: model.PullProgress, Current: out.Current, Cursor: stop}
			} else if len(es) == 0 && !ended[c.Stream] && out.Kind == model.PullComplete && fetch.Stream == c.Stream &&
				fetch.After.Less(fetchTarget(&fetch)) && wall.mayHaveRunOut(c.At) {
				// Closed unread short of the target: the wall-time
				// budget ran out before the first read (SPEC 6.4 step
				// 7), a batch that stops where it began.
				out = model.Pull{Kind: model.PullProgress, Current: out.Current, Cursor: fetch.After}
			}
		}
	}
	if lost {
		return model.Pull{Kind: model.PullLost}
	}
	return out
}

// usedConnection reports whether calls hold a call other than a close: a
// connect attempt, or a handle the actor held (its runtime id, its sync
// channel or a call on it).
func usedConnection(calls []faults.Call) bool {
	for _, c := range calls {
		if c.Op != faults.OpClose && c.Op != faults.OpEventClose {
			return true
		}
	}
	return false
}

// execFacts splits an exec actor's calls at the command: the calls of the
// pre-exec push and spawn, and those of the post-command step.
type execFacts struct {
	spawned   bool    // a spawn succeeded (the command ran and was streamed)
	ranAnyway bool    // a spawn failed after dispatch: the command ran
	runtime   *string // the runtime the spawning connection reported
	eventsErr bool    // the event stream failed
	// cancelled: a read of the event stream failed with the caller's
	// cancellation (the simulator's doing); a deferred exec drains on.
	cancelled bool
	post      []faults.Call
}

func readExec(calls []faults.Call) execFacts {
	var f execFacts
	stream := 0
	for i, c := range calls {
		switch c.Op {
		case faults.OpExec:
			if c.Err == "" {
				f.spawned, stream = true, c.Stream
				f.runtime = nil
				if c.HasRuntimeID {
					f.runtime = scheduler.Ptr(c.RuntimeID)
				}
			} else if c.Fault == faults.TransportPostDispatch {
				f.ranAnyway = true
			}
		case faults.OpEventNext:
			if c.Stream != stream {
				continue
			}
			if c.Err == context.Canceled.Error() && c.Fault == faults.NoFault {
				f.cancelled = true
				continue
			}
			if c.Err != "" {
				f.eventsErr = true
				f.post = calls[i+1:]
				return f
			}
			if c.EOF {
				f.post = calls[i+1:]
				return f
			}
		}
	}
	return f
}

// captureOutcome reads a deferred exec's target capture: one handle (no
// reconnect), the runtime fence, then watermarks with settle. It returns
// nil when the capture failed.
//
// A sync-less handle (syncNone) captures {0,null} without a remote call
// (SPEC 3.3 step 7): the capture asks the handle how it syncs, which the
// runtime records as the handle's sync entry (OpSync), and only once it
// holds a handle of the command's runtime. A capture that shared another
// actor's failed connect (SPEC 5.4) leaves no call of its own, and no
// capture (falsealarm-sync-none-shared-connect.txt).
func captureOutcome(post []faults.Call, runtime *string, syncNone bool) *scheduler.Cursor {
	var captured *scheduler.Cursor
	for _, c := range post {
		switch {
		case c.Op == faults.OpClose:
		case c.Err != "":
			captured = nil
		case c.Op == faults.OpRuntimeID && runtime != nil && (!c.HasRuntimeID || c.RuntimeID != *runtime):
			captured = nil
		case c.Op == faults.OpWatermarks && c.Settle:
			captured = scheduler.Ptr(scheduler.At(c.CurrentRev))
		case c.Op == faults.OpSync && syncNone:
			captured = scheduler.Ptr(scheduler.At(0))
		}
	}
	return captured
}

// pullOnceTripsCrossSide reports whether a pullOnce (an exec's post-command
// pull or an explicit Pull) ended in the cross-side assertion of SPEC 6.3
// step 5: at its last fetch the remote's applied-push cursor was below
// {pushRev, null}, pushRev being the scalar the pull read just before that
// fetch (reads). The assertion comes before step 6's early return, so it
// fires even when there is nothing to read. In practice the remote's
// applied-push cursor sits inside a revision, {R, path}, which a push batch
// that filled its budget leaves until the next batch acknowledges
// {R, null} (QUIRK, docs/SPEC.md 6.3), while the local push cursor {R, path}
// has set the scalar to R. A divergence reset between two fetches reads
// the scalar again, so the read before the last fetch is the one compared.
//
// Without a read to go by (a record from elsewhere), the remote's answer and
// the SUT's stopping decide, as before the reads were kept: the applied-push
// cursor inside a revision, something to read, and the stream closed unread.
func pullOnceTripsCrossSide(calls []faults.Call, reads []history.PushRevRead) bool {
	trips, _ := crossSideTrip(calls, reads)
	return trips
}

// crossSideTrip is pullOnceTripsCrossSide with the text the assertion's
// error must then read, when a read decided it (SPEC 6.3 step 5: the
// remote's applied-push cursor and {pushRev, null}, rendered as traces
// render cursors, faults.CursorText); "" when the record alone did.
func crossSideTrip(calls []faults.Call, reads []history.PushRevRead) (trips bool, text string) {
	last := -1
	for i, c := range calls {
		if c.Op == faults.OpFetch && c.Err == "" {
			last = i
		}
	}
	if last < 0 {
		return false, ""
	}
	f := calls[last]
	for i := len(reads) - 1; i >= 0; i-- {
		if reads[i].Pos < f.Seq {
			push := scheduler.At(reads[i].Rev)
			if !f.AppliedPushCursor.Less(push) {
				return false, ""
			}
			return true, "cross-side invariant violated: appliedPushCursor (" + faults.CursorText(f.AppliedPushCursor) +
				") < pushCursor (" + faults.CursorText(push) + ")"
		}
	}
	return crossSideByRecord(calls, last), ""
}

// crossSideByRecord decides the assertion without a read of pushRev: the
// remote's applied-push cursor inside a revision, something to read, and
// the last fetch's stream (calls[last]) closed unread.
func crossSideByRecord(calls []faults.Call, last int) bool {
	f := calls[last]
	if !f.AppliedPushCursor.HasPath || f.AppliedPushCursor.Rev == 0 {
		return false
	}
	after, current := f.After, f.CurrentCursor
	if current.Rev < after.Rev || (current.Rev == after.Rev && !after.HasPath) {
		return false // nothing to read: complete before the stream
	}
	for _, c := range calls[last+1:] {
		if c.Stream == f.Stream && (c.Op == faults.OpStreamNext || c.Err != "") {
			return false // read, or failed: not the assertion
		}
	}
	return true
}

// lastRuntime is the runtime id of the last connection the actor fetched on.
func lastRuntime(calls []faults.Call) (string, bool) {
	for i := len(calls) - 1; i >= 0; i-- {
		if calls[i].Op == faults.OpFetch && calls[i].Err == "" {
			return calls[i].RuntimeID, calls[i].HasRuntimeID
		}
	}
	return "", false
}
