package oracle

import (
	"fmt"
	"strings"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// preCheckText is SPEC 4's fixed error of the pre-check branch.
const preCheckText = "pending sync retry attempts exhausted"

// judgeRetry steps the model with one finished RetryPendingSync and holds
// its result to the prediction (model), with what a retry may never do
// (retry-never-reexecs, complete-on-own-runtime), the class and the text
// of its error (error-class, error-text, lost-message).
func (c *ModelChecker) judgeRetry(e *history.Event) bool {
	op := e.Op
	b := c.setup.Backends[e.Backend]
	calls := op.Calls
	in, had := c.state.Intent(b)
	var fence *string
	if had {
		fence = in.RuntimeID
	}
	pull := pullOutcome(calls, fence, c.budget(), wallBudget{limit: c.budget().MaxWallTime, begun: op.Begun})
	next, want, err := c.state.Retry(c.opts, b, c.now(e), pull, c.storeCalls(e))
	if err != nil {
		return c.fail("model", fmt.Sprintf("%s: %v", e.Actor, err))
	}
	c.state = next
	got := op.Retry
	if op.Err != nil {
		c.reach("retry/rejected")
	} else {
		c.reach(history.ReachRetry + string(got.Status))
		if want.Status == "exhausted" && !want.Pulled {
			c.reach("retry/exhausted-precheck")
		}
	}
	if want.Rejected != (op.Err != nil) {
		return c.fail("model", fmt.Sprintf("%s: expected rejected=%t (the model), got %t (err %v)", e.Actor, want.Rejected, op.Err != nil, op.Err))
	}
	if want.Rejected {
		if c.opts.NoScheduler {
			// SPEC 4: rejected before any store call or pull.
			if len(calls) > 0 || !strings.Contains(op.Err.Error(), "retryScheduler") {
				return c.fail("model", fmt.Sprintf("%s: without a scheduler a retry must be rejected (\"retryScheduler\") before reaching the runtime: %d calls, err %v", e.Actor, len(calls), op.Err))
			}
			return false
		}
		// The model rejects a retry only for an intent-store call that
		// failed, which the harness injected: the caller gets that failure
		// as it is (SPEC 4: the store's error is returned), not a transport
		// failure (error-class).
		return c.judgeErrClass(e, wantStore)
	}
	if !want.Pulled && len(calls) > 0 {
		return c.fail("model", fmt.Sprintf("%s: expected no runtime call (status %s, the model), got %d", e.Actor, want.Status, len(calls)))
	}
	if c.judgePulled(e, want) {
		return true
	}
	if reexec := countOp(calls, faults.OpExec); reexec > 0 {
		return c.fail("retry-never-reexecs", fmt.Sprintf("%s: a retry ran %d commands", e.Actor, reexec))
	}
	if got.Status == workspace.RetryComplete && fence != nil && pull.Kind == model.PullComplete {
		if rt, ok := lastRuntime(calls); ok && rt != *fence {
			return c.fail("complete-on-own-runtime", fmt.Sprintf("%s: complete against %s, intent names %s", e.Actor, rt, *fence))
		}
	}
	t0 := c.setup.T0
	gotCmp := retryView{Status: string(got.Status), Attempt: got.Attempt, NotBefore: got.NotBefore.Sub(t0),
		RuntimeID: got.RuntimeID, TargetCursor: got.TargetCursor, Cursor: got.Cursor, HasError: got.Error != ""}
	wantCmp := retryView{Status: want.Status, Attempt: want.Attempt, NotBefore: want.NotBefore.Sub(t0),
		RuntimeID: want.RuntimeID, TargetCursor: want.TargetCursor, Cursor: want.Cursor,
		HasError: want.Status == "exhausted" || want.Status == "lost" || (want.Status == "pending" && !want.Progress)}
	if want.Status != "pending" {
		gotCmp.NotBefore, wantCmp.NotBefore = 0, 0
	}
	if want.Status != "pending" && want.Status != "exhausted" {
		gotCmp.Attempt, wantCmp.Attempt = 0, 0
	}
	if want.Status == "idle" || want.Status == "complete" || want.Status == "lost" && want.RuntimeID == nil {
		gotCmp.RuntimeID, wantCmp.RuntimeID = nil, nil
	}
	if d := diffUnlessEqual(wantCmp, gotCmp, retryView.equal); d != "" {
		return c.fail("model", fmt.Sprintf("%s: retry result (pull %s): expected the model's, got the SUT's (-expected +got):\n%s", e.Actor, pull.Kind, d))
	}
	if want.ErrorContains != "" && !strings.Contains(got.Error, want.ErrorContains) {
		return c.fail("model", fmt.Sprintf("%s: expected a %s error containing %q, got %q", e.Actor, want.Status, want.ErrorContains, got.Error))
	}
	if c.judgeRetryWrapper(e, want, pull) {
		return true
	}
	return c.judgeLostForm(e, want)
}

// retryView is the part of a retry result the model predicts exactly.
type retryView struct {
	Status       string
	Attempt      int
	NotBefore    time.Duration // since the clock's start, to the nanosecond
	RuntimeID    *string
	TargetCursor *scheduler.Cursor
	Cursor       *scheduler.Cursor
	HasError     bool
}

func (v retryView) equal(o retryView) bool {
	return v.Status == o.Status && v.Attempt == o.Attempt && v.NotBefore == o.NotBefore &&
		v.HasError == o.HasError && eqPtr(v.RuntimeID, o.RuntimeID) &&
		eqPtr(v.TargetCursor, o.TargetCursor) && eqPtr(v.Cursor, o.Cursor)
}

// judgePulled is the other half of the model's "expected no runtime call":
// a retry the model says must pull (its intent passed SPEC 4's pre-check,
// attempt <= maxAttempts, which only a host-planted intent at exactly the
// limit tells apart from the pre-check) reaches the runtime, and an
// exhaustion after a pull carries the pull's error, never the pre-check's
// fixed text. Every pull asks the handle something the runtime records
// (its sync surface or its runtime id), except one whose connect it shared
// with another actor and saw fail (SPEC 5.4), so an operation during which
// another actor connected is not held to the first half.
func (c *ModelChecker) judgePulled(e *history.Event, want model.RetryResult) bool {
	if !want.Pulled || want.Rejected || e.Op.CancelHit {
		return false
	}
	if want.Status == "exhausted" && e.Op.Retry.Error == preCheckText {
		return c.fail("model", fmt.Sprintf("%s: expected an exhaustion after a pull, with the pull's error (SPEC 4: attempt %d passes the pre-check, %d <= maxAttempts %d), got the pre-check's %q",
			e.Actor, want.Attempt, want.Attempt, c.opts.MaxAttempts, preCheckText))
	}
	if !hasRuntimeCall(e.Op.Calls) && !c.otherConnect(e) {
		return c.fail("model", fmt.Sprintf("%s: expected a pull (status %s, the model: the intent passes SPEC 4's pre-check), got no runtime call", e.Actor, want.Status))
	}
	return false
}

// hasRuntimeCall reports whether calls hold one the runtime recorded (not
// a local-store fault the driver merged in).
func hasRuntimeCall(calls []faults.Call) bool {
	for i := range calls {
		if calls[i].Op != faults.OpLocalStore {
			return true
		}
	}
	return false
}

// lostCombined is what SPEC 5.2 step 1 puts between the fence's message
// and the first pass's transport failure.
const lostCombined = " Original transport failure: "

// judgeLostForm is property lost-message (SPEC 5.2 step 1): a retry the
// model says is lost, whose first failed call (the harness's record, not
// the workspace's) was a transport failure, lost on its second pass, and
// the EEXEC_LOST it reports then carries the first pass's failure:
// "<lost message> Original transport failure: <first message>". The fence
// only fails on a pass's handle, and a fence failure is not retried, so a
// transport failure before it is always the first pass's. A first pass
// that shared another actor's failed connect leaves no failed call of the
// actor's own and is not held to it (otherConnect is not needed: no own
// failure, no check). The fence's message sits far inside the 512-unit cut
// of SPEC 1.4, but a lost error the runtime raised itself may not: a
// message cut at the limit (511 or 512 units) is not held to the suffix
// (falsealarm-lost-message-cut.txt).
func (c *ModelChecker) judgeLostForm(e *history.Event, want model.RetryResult) bool {
	if want.Status != "lost" || e.Op.CancelHit {
		return false
	}
	calls := e.Op.Calls
	i := firstFailure(calls, len(calls))
	if i < 0 || !calls[i].Transport || strings.Contains(e.Op.Retry.Error, lostCombined) {
		return false
	}
	if utf16Units(e.Op.Retry.Error) >= maxSafeUnits-1 {
		return false // cut by SPEC 1.4's rule, maybe before the suffix
	}
	return c.fail("lost-message", fmt.Sprintf("%s: expected a lost error that names the first pass's transport failure (#%d %s; SPEC 5.2: \"<lost message>%s<first message>\"), got %q",
		e.Actor, calls[i].Seq, calls[i].Op, lostCombined, e.Op.Retry.Error))
}

// utf16Units is the length of s in UTF-16 code units, SPEC 1.4's measure.
func utf16Units(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}
