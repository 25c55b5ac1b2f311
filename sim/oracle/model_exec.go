package oracle

import (
	"fmt"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// judgeExec steps the model with one finished Exec and holds its sync
// result to the prediction (model), with the class and the text of its
// error (error-class, error-text).
func (c *ModelChecker) judgeExec(e *history.Event) bool {
	op := e.Op
	b := c.setup.Backends[e.Backend]
	calls := op.Calls
	facts := readExec(calls)
	store := c.storeCalls(e)
	if c.opts.NoScheduler && op.Mode == workspace.SyncDefer {
		// SPEC 3.1, R13: assertDeferredReady runs first, so no push and no
		// spawn: not one runtime or store call.
		c.reach("exec/error")
		if op.Err == nil || !strings.Contains(op.Err.Error(), "retryScheduler") || len(calls) > 0 || len(store) > 0 {
			return c.fail("model", fmt.Sprintf("%s: a deferred exec without a scheduler must be rejected (\"retryScheduler\") before any call: err %v, %d runtime calls, %d store calls", e.Actor, op.Err, len(calls), len(store)))
		}
		return false
	}
	if !facts.spawned {
		// The command never reached a streamed end (push or spawn failed,
		// or deferred mode was refused): no post-command step at all.
		key := "error"
		if facts.ranAnyway {
			key = "error-after-dispatch"
		}
		c.reach(history.ReachExec + key)
		if op.Err == nil {
			return c.fail("model", fmt.Sprintf("%s: expected a command streamed by the runtime (the exec succeeded), got none", e.Actor))
		}
		if len(store) > 0 {
			return c.fail("model", fmt.Sprintf("%s: exec failed before its command ran but touched the store: %v", e.Actor, store))
		}
		want := c.execDispatchClass(e)
		if c.judgeUnexplained(e, want, "the exec failed before its command ran") || c.judgeErrClass(e, want) {
			return true
		}
		return c.judgeExecWrapper(e, want)
	}
	// Once the command streamed, Exec fails exactly when its event stream
	// did (SPEC 3.2: the stream errors to the consumer, sync is pending).
	if facts.cancelled {
		c.reach(history.ReachExec + syncName(op.Mode) + "/cancelled") // a cancel branch of runCommand
	}
	if (facts.eventsErr || facts.cancelled) != (op.Err != nil) {
		return c.fail("model", fmt.Sprintf("%s: expected an exec error=%t (the event stream failed=%t), got %v", e.Actor, facts.eventsErr, facts.eventsErr, op.Err))
	}
	if c.judgeErrClass(e, streamClass(facts, calls)) {
		return true
	}
	x := model.Exec{Backend: b, Runtime: facts.runtime}
	var waitPull model.Pull // the post-command pull's outcome, in wait mode
	if op.Mode == workspace.SyncDefer && !facts.eventsErr {
		x.Mode = model.Defer
		x.Captured = captureOutcome(facts.post, facts.runtime, c.syncNone(e.Backend))
	} else {
		x.Mode = model.Wait
		p := pullOutcome(facts.post, facts.runtime, c.budget(), wallBudget{}) // pullOnce has no budget
		if p.Kind == model.PullComplete && pullOnceTripsCrossSide(facts.post, op.PushRevReads) {
			p.Kind = model.PullFailed
			c.reach("exec/wait/cross-side")
		}
		waitPull = p
		x.PullFailed = facts.eventsErr || facts.cancelled || p.Kind == model.PullFailed || p.Kind == model.PullLost
	}
	next, want, err := c.state.Exec(c.opts, x, c.now(e), store)
	if err != nil {
		return c.fail("model", fmt.Sprintf("%s: %v", e.Actor, err))
	}
	c.state = next
	got := op.Exec.Sync
	key := string(got.Status)
	if got.Error != "" {
		key += "+error"
	}
	c.reach(history.ReachExec + syncName(op.Mode) + "/" + key)
	gotV := execView{Status: string(got.Status), HasError: got.Error != "", RuntimeID: got.RuntimeID, TargetCursor: got.TargetCursor}
	wantV := execView{Status: want.Status, HasError: want.HasError, RuntimeID: want.RuntimeID, TargetCursor: want.TargetCursor}
	if d := diffUnlessEqual(wantV, gotV, execView.equal); d != "" {
		return c.fail("model", fmt.Sprintf("%s: exec sync result: expected the model's, got the SUT's (-expected +got):\n%s", e.Actor, d))
	}
	if x.Mode == model.Wait && !facts.eventsErr && !facts.cancelled {
		return c.judgeWaitSyncWrapper(e, facts.post, waitPull)
	}
	return false
}

// syncName is an exec's sync mode as the sweep's table of exec outcomes
// names it.
func syncName(m workspace.ExecSync) string {
	if m == workspace.SyncDefer {
		return "defer"
	}
	return "wait"
}

type execView struct {
	Status       string
	HasError     bool
	RuntimeID    *string
	TargetCursor *scheduler.Cursor
}

func (v execView) equal(o execView) bool {
	return v.Status == o.Status && v.HasError == o.HasError && eqPtr(v.RuntimeID, o.RuntimeID) &&
		eqPtr(v.TargetCursor, o.TargetCursor)
}

// diffUnlessEqual is cmp.Diff(want, got) with a fast path: the judge
// compares after every operation and the two nearly always agree, so only
// a disagreement pays for cmp's reflection. equal must imply that cmp.Diff
// finds no difference (it compares what cmp compares: pointees, not
// pointers); when it says no, cmp.Diff has the last word.
func diffUnlessEqual[T any](want, got T, equal func(T, T) bool) string {
	if equal(want, got) {
		return ""
	}
	return cmp.Diff(want, got)
}

// eqPtr is cmp's pointer equality: both nil, or both set to equal values.
func eqPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
