package sim

import (
	"context"
	"slices"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/scheduler"
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
// known is false when the actor made no runtime call at all but closing
// handles (the event stream it just drained): it then shared a connect
// another actor had in flight (or a cached handle), and the record alone
// cannot say whether that handed it a failure (a shared connect can fail
// without a transport error, when the reconcile on connect meets a
// local-store fault); the caller lets the store record decide between the
// two outcomes.
//
// A fetch on a connection reporting another runtime than the fence is a
// lost runtime whatever happens next: the correct code never fetches there,
// and a variant that does must still be judged against "lost".
func pullOutcome(calls []faults.Call, fence *string) (pull model.Pull, known bool) {
	if !slices.ContainsFunc(calls, func(c faults.Call) bool { return c.Op != faults.OpClose && c.Op != faults.OpEventClose }) {
		return model.Pull{Kind: model.PullComplete}, false
	}
	out := model.Pull{Kind: model.PullComplete}
	lost := false
	served := map[int]*scheduler.Cursor{}
	ended := map[int]bool{} // streams that reached EOF or failed
	for _, c := range calls {
		switch {
		case c.Op == faults.OpClose || c.Op == faults.OpEventClose:
			// Closing a handle is clean-up, not part of the outcome.
		case c.Err != "" && c.Op != faults.OpStreamClose:
			out = model.Pull{Kind: model.PullFailed}
			if c.Stream != 0 {
				ended[c.Stream] = true
			}
		case c.Op == faults.OpConnect:
			out = model.Pull{Kind: model.PullComplete} // a new pass starts on a fresh handle
		case c.Op == faults.OpRuntimeID:
			if fence != nil && (!c.HasRuntimeID || c.RuntimeID != *fence) {
				out = model.Pull{Kind: model.PullLost}
			} else {
				out = model.Pull{Kind: model.PullComplete}
			}
		case c.Op == faults.OpFetch:
			out = model.Pull{Kind: model.PullComplete, Current: c.CurrentCursor}
			if fence != nil && (!c.HasRuntimeID || c.RuntimeID != *fence) {
				lost = true
			}
		case c.Op == faults.OpStreamNext:
			if c.EOF {
				ended[c.Stream] = true
			} else if c.Entry != nil {
				served[c.Stream] = c.Entry
			}
		case c.Op == faults.OpStreamClose:
			// A stream closed before its end after serving entries is a
			// budget stop; closed with nothing read it is an early
			// complete, or a divergence reset that a new fetch follows.
			if last := served[c.Stream]; last != nil && !ended[c.Stream] {
				out = model.Pull{Kind: model.PullProgress, Current: out.Current, Cursor: *last}
			}
		}
	}
	if lost {
		return model.Pull{Kind: model.PullLost}, true
	}
	return out, true
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
func captureOutcome(post []faults.Call, runtime *string) *scheduler.Cursor {
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
		}
	}
	return captured
}

// appendByActor appends to dst the calls one actor made.
func appendByActor(dst, calls []faults.Call, actor string) []faults.Call {
	for _, c := range calls {
		if c.Actor == actor {
			dst = append(dst, c)
		}
	}
	return dst
}
