package workspace

import (
	"context"
	"errors"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace/internal/plant"
)

// errDeferredNeedsScheduler is raised by a deferred exec on a workspace
// without a scheduler, before anything is pushed or spawned (SPEC 3.1).
var errDeferredNeedsScheduler = errors.New("Workspace requires a retryScheduler for deferred synchronization")

// pendingMeta is the scheduling metadata #schedulePendingSync returns; a
// deferred exec copies it into its SyncResult. Backend is "" when nothing
// was stored (no scheduler in wait mode).
type pendingMeta struct {
	Backend      string
	RuntimeID    *string
	TargetCursor *Cursor
}

func metaOf(in scheduler.Intent) pendingMeta {
	return pendingMeta{Backend: in.Backend, RuntimeID: in.RuntimeID, TargetCursor: in.TargetCursor}
}

// schedulePendingSync is #schedulePendingSync of SPEC 3.3, step by step.
// runtimeID is the runtime whose changes are pending (nil: unidentified);
// capture selects deferred mode (settle and capture a target).
func (w *Workspace) schedulePendingSync(ctx context.Context, id string, runtimeID *string, capture bool) (pendingMeta, error) {
	// 1. No scheduler: deferred mode is an error, wait mode stores nothing.
	if w.sched == nil {
		if capture {
			return pendingMeta{}, errDeferredNeedsScheduler
		}
		return pendingMeta{}, nil
	}
	// 2. One FIFO entry, so get-then-schedule is atomic for this backend.
	return serialize(ctx, w, id, func() (pendingMeta, error) {
		// 3.
		existing, found, err := w.sched.Get(ctx, id)
		if err != nil {
			return pendingMeta{}, err
		}
		// 4. An unidentified caller is "same" as any existing intent.
		sameRuntime := found && (runtimeID == nil || equalPtr(existing.RuntimeID, runtimeID))
		// 5. Wait-mode coalescing: the existing intent keeps its attempt,
		// notBefore and target (QUIRK: no widening, exhausted absorbs).
		if !capture && sameRuntime {
			if w.mut.Has(plant.CoalesceResetsAttempt) {
				// Planted bug: coalescing re-arms the existing intent at
				// attempt 1 with a fresh notBefore, the class of bug where
				// a retry budget is reset by repeated failures and an
				// exhausted backend is retried forever.
				next := w.retryIntent(id, w.firstAttempt(), existing.RuntimeID, existing.TargetCursor)
				if err := w.sched.Schedule(ctx, next); err != nil {
					return pendingMeta{}, err
				}
			}
			return metaOf(existing), nil
		}
		// 6.
		intentRuntime := runtimeID
		if intentRuntime == nil && sameRuntime {
			intentRuntime = existing.RuntimeID
		}
		// 7. Deferred capture; any failure leaves the intent unfenced.
		var target *Cursor
		var captureErr error
		if capture {
			target, captureErr = w.captureTarget(ctx, id, runtimeID)
			if captureErr == nil && sameRuntime && existing.TargetCursor != nil &&
				existing.TargetCursor.Compare(*target) > 0 && !w.mut.Has(plant.NoWiden) {
				// Widen: keep the wider same-runtime target. Planted bug
				// plant.NoWiden drops it, the class of bug where a later
				// fence narrows an earlier one and a retry completes
				// before the first command's changes are pulled.
				target = scheduler.Ptr(*existing.TargetCursor)
			}
		}
		// 8. Always a fresh attempt-1 intent, even when replacing/widening.
		next := w.retryIntent(id, w.firstAttempt(), intentRuntime, target)
		if err := w.sched.Schedule(ctx, next); err != nil {
			return pendingMeta{}, err
		}
		// 9. The unfenced intent is durable; now the capture error surfaces.
		if captureErr != nil {
			return pendingMeta{}, captureErr
		}
		// 10.
		return metaOf(next), nil
	})
}

// captureTarget is step 7 of SPEC 3.3: connect (no reconnect retry), check
// the runtime, settle the remote and read its current rev as a null-path
// target; sync "none" captures {0,null}.
func (w *Workspace) captureTarget(ctx context.Context, id string, runtimeID *string) (*Cursor, error) {
	h, err := w.handleFor(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := assertRuntime(postCommandSyncLabel, runtimeID, h); err != nil {
		return nil, err
	}
	if h.SyncMode() == SyncNone {
		return scheduler.Ptr(scheduler.Baseline), nil
	}
	wm, err := h.Sync().Watermarks(ctx, WatermarksRequest{Settle: true})
	if err != nil {
		return nil, err
	}
	return scheduler.Ptr(scheduler.At(wm.CurrentRev)), nil
}

func equalPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}
