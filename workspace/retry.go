package workspace

import (
	"context"
	"errors"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace/internal/plant"
)

// errAttemptsExhausted is the fixed error of the pre-check (SPEC 4).
const errAttemptsExhausted = "pending sync retry attempts exhausted"

// errNoScheduler is returned by RetryPendingSync without a scheduler.
var errNoScheduler = errors.New("Workspace has no retryScheduler configured")

// RetryPendingSync runs the stored retry intent of backend ("" = default):
// the state machine of SPEC 4, inside the backend's FIFO. budget nil means
// DefaultBudget. An unknown backend id fails before the FIFO is entered.
//
// The host calls it when an intent's NotBefore is due; the library itself
// does not check NotBefore (QUIRK: an early call runs and counts like an
// on-time one).
//
// The error return is for failures outside the state machine (no
// scheduler, scheduler Get failing, Schedule/Clear failing in a failure
// branch, ctx ending while queued); pull failures are results.
func (w *Workspace) RetryPendingSync(ctx context.Context, backend string, budget *Budget) (RetryResult, error) {
	id, err := w.resolveBackend(backend)
	if err != nil {
		return RetryResult{}, err
	}
	b := DefaultBudget
	if budget != nil {
		b = *budget
	}
	return serialize(ctx, w, id, func() (RetryResult, error) {
		if w.sched == nil {
			return RetryResult{}, errNoScheduler
		}
		intent, found, err := w.sched.Get(ctx, id)
		if err != nil {
			return RetryResult{}, err
		}
		if !found {
			return RetryResult{Status: RetryIdle, Backend: id}, nil
		}
		if res, done, err := w.precheck(ctx, id, intent); done {
			return res, err
		}
		res, err := w.retryTry(ctx, id, intent, b)
		if err == nil {
			return res, nil
		}
		return w.retryCatch(ctx, id, intent, err)
	})
}

// precheck is SPEC 4's PRE-CHECK: attempt > max reports exhausted with the
// fixed text, no pull, nothing cleared or rescheduled.
func (w *Workspace) precheck(ctx context.Context, id string, intent scheduler.Intent) (RetryResult, bool, error) {
	exhausted := intent.Attempt > w.maxAttempts
	if w.mut.Has(plant.PrecheckGE) {
		// Planted bug (article A): `attempt >= max` clears and gives up,
		// an off-by-one that drops the last allowed pull and the intent.
		exhausted = intent.Attempt >= w.maxAttempts
	}
	if !exhausted {
		return RetryResult{}, false, nil
	}
	if w.mut.Has(plant.PrecheckGE) || w.mut.Has(plant.ExhaustedClears) {
		if err := w.sched.Clear(ctx, id); err != nil {
			return RetryResult{}, true, err
		}
	}
	return exhaustedResult(id, intent, errAttemptsExhausted), true, nil
}

// retryTry is SPEC 4's try block. Schedule and Clear run inside it, so
// their failures are handled as pull failures (QUIRK).
func (w *Workspace) retryTry(ctx context.Context, id string, intent scheduler.Intent, b Budget) (RetryResult, error) {
	r, err := w.pullBatchResolved(ctx, id, intent.RuntimeID, b, intent.TargetCursor)
	if err != nil {
		return RetryResult{}, err
	}
	if !r.Complete {
		target := scheduler.Ptr(r.TargetCursor)
		if w.mut.Has(plant.ProgressAsFailure) {
			// Planted bug: budget-bounded progress counts as a failure,
			// the class of bug where a large tree can never drain.
			if intent.Attempt >= w.maxAttempts {
				return w.exhaust(ctx, id, intent, "pending sync retry made no progress")
			}
			next := w.retryIntent(id, intent.Attempt+1, intent.RuntimeID, target)
			if err := w.sched.Schedule(ctx, next); err != nil {
				return RetryResult{}, err
			}
			return pendingProgress(next, r.Cursor), nil
		}
		// Budget hit: progress, not failure. Attempt back to 1, fenced at
		// the batch's (possibly lowered) target.
		next := w.retryIntent(id, w.firstAttempt(), intent.RuntimeID, target)
		if err := w.sched.Schedule(ctx, next); err != nil {
			return RetryResult{}, err
		}
		return pendingProgress(next, r.Cursor), nil
	}
	if err := w.sched.Clear(ctx, id); err != nil {
		return RetryResult{}, err
	}
	return RetryResult{Status: RetryComplete, Backend: id, Applied: r.Applied, Skipped: nonEmpty(r.Skipped)}, nil
}

// retryCatch is SPEC 4's catch block: lost, exhausted (post-failure >=), or
// pending at attempt+1 with the same target. Scheduler failures here are
// returned as errors. Its store calls run under context.WithoutCancel(ctx):
// a caller that cancels mid-pull makes the pull fail, and recording that
// failure (the next attempt, or clearing a lost runtime's intent) must not
// be refused for the same cancellation (Go deviation, docs/SPEC.md 4).
func (w *Workspace) retryCatch(ctx context.Context, id string, intent scheduler.Intent, pullErr error) (RetryResult, error) {
	ctx = context.WithoutCancel(ctx)
	msg := w.resultMessage(pullErr)
	if intent.RuntimeID != nil && isExecutionLost(pullErr) {
		if err := w.sched.Clear(ctx, id); err != nil {
			return RetryResult{}, err
		}
		return RetryResult{Status: RetryLost, Backend: id, RuntimeID: scheduler.Ptr(*intent.RuntimeID), Error: msg}, nil
	}
	if intent.Attempt >= w.maxAttempts {
		return w.exhaust(ctx, id, intent, msg)
	}
	next := w.retryIntent(id, intent.Attempt+1, intent.RuntimeID, intent.TargetCursor)
	if err := w.sched.Schedule(ctx, next); err != nil {
		return RetryResult{}, err
	}
	res := resultOf(next)
	res.Error = msg
	return res, nil
}

// exhaust reports the post-failure exhausted branch: the intent stays
// stored unchanged. Planted bug plant.ExhaustedClears (article B) clears it,
// the class of bug where a give-up erases the evidence and the host never
// learns a backend is stuck.
func (w *Workspace) exhaust(ctx context.Context, id string, intent scheduler.Intent, msg string) (RetryResult, error) {
	if w.mut.Has(plant.ExhaustedClears) {
		if err := w.sched.Clear(ctx, id); err != nil {
			return RetryResult{}, err
		}
	}
	return exhaustedResult(id, intent, msg), nil
}

func exhaustedResult(id string, intent scheduler.Intent, msg string) RetryResult {
	res := RetryResult{Status: RetryExhausted, Backend: id, Attempt: intent.Attempt, Error: msg}
	if intent.RuntimeID != nil {
		res.RuntimeID = scheduler.Ptr(*intent.RuntimeID)
	}
	return res
}

// resultOf spreads an intent into a pending result (`{status, ...next}`).
func resultOf(next scheduler.Intent) RetryResult {
	next = next.Clone()
	return RetryResult{
		Status:       RetryPending,
		Backend:      next.Backend,
		Attempt:      next.Attempt,
		NotBefore:    next.NotBefore,
		RuntimeID:    next.RuntimeID,
		TargetCursor: next.TargetCursor,
	}
}

func pendingProgress(next scheduler.Intent, cursor Cursor) RetryResult {
	res := resultOf(next)
	res.Cursor = scheduler.Ptr(cursor)
	return res
}

// pullBatchResolved is #pullBatchResolved of SPEC 4.1: one bounded batch
// with one reconnect retry. The runtime assertion runs before the sync
// "none" check, so a none handle can still yield lost; handleFor (and its
// reconcile) runs before either.
func (w *Workspace) pullBatchResolved(ctx context.Context, id string, expectedRuntime *string, b Budget, target *Cursor) (pullResult, error) {
	return runWithReconnect(ctx, w, id, "pullBatch", policyAlways, func(h Handle) (pullResult, error) {
		// Planted bug plant.NoRuntimeFence: see pullSerialized.
		if !w.mut.Has(plant.NoRuntimeFence) {
			if err := assertRuntime(postCommandSyncLabel, expectedRuntime, h); err != nil {
				return pullResult{}, err
			}
		}
		if h.SyncMode() == SyncNone {
			t := scheduler.Baseline
			if target != nil {
				t = *target
			}
			return pullResult{Complete: true, Cursor: t, TargetCursor: t}, nil
		}
		return pullBatch(ctx, w.store, id, h.Sync(), target, b, w.clk, w.mut)
	})
}
