package workspace

import (
	"context"
	"fmt"

	"github.com/syncsim/syncsim/scheduler"
)

// pushBatchResult is the outcome of one pushBatch call.
type pushBatchResult struct {
	Complete     bool
	Pushed       int    // entries sent in this call
	Bytes        int64  // content bytes sent in this call
	Cursor       Cursor // the push cursor after this call (acknowledged)
	TargetCursor Cursor // min(given target ?? {currentRev,null}, {currentRev,null})
}

// pushBatch is SPEC 6.5: send at most maxEntries coalesced local changes
// (and about maxBytes of content) after the push cursor, up to target.
func pushBatch(ctx context.Context, st Store, backend string, rpc SyncRPC, target *Cursor, maxEntries int, maxBytes int64) (pushBatchResult, error) {
	if err := validateBudget(Budget{MaxEntries: maxEntries, MaxBytes: maxBytes}); err != nil {
		return pushBatchResult{}, err
	}
	cursor, err := st.PushCursor(backend)
	if err != nil {
		return pushBatchResult{}, err
	}
	rev, err := st.CurrentRev(backend)
	if err != nil {
		return pushBatchResult{}, err
	}
	tgt := scheduler.At(rev)
	if target != nil {
		tgt = scheduler.MinCursor(*target, tgt)
	}
	res := pushBatchResult{Cursor: cursor, TargetCursor: tgt}
	if !cursor.Less(tgt) {
		res.Complete = true
		return res, nil
	}
	candidates, err := st.LocalChanges(backend, cursor, tgt, maxEntries)
	if err != nil {
		return pushBatchResult{}, err
	}
	if len(candidates) == 0 && cursor == scheduler.Baseline {
		// Nothing was ever pushed and nothing is to push: no remote call.
		res.Complete = true
		return res, nil
	}

	// The first candidate always goes, so every call progresses; the rest
	// go while they fit in the byte budget.
	selected := 0
	for _, c := range candidates {
		size := changeBytes(c)
		if selected > 0 && res.Bytes+size > maxBytes {
			break
		}
		res.Bytes += size
		selected++
	}
	// NB: like pullBatch's off-by-one, "exhausted" means fewer candidates
	// than asked for: exactly maxEntries candidates are not probed for a
	// successor, so the next call sends an empty stream acknowledging the
	// target (SPEC 9 S22: pending, pending, complete).
	sender := tgt
	if selected < len(candidates) || len(candidates) == maxEntries {
		sender = candidates[selected-1].Cursor()
	}
	ack, err := rpc.Push(ctx, PushRequest{SenderRev: sender.Rev, SenderCursor: &sender, Changes: candidates[:selected]})
	if err != nil {
		return pushBatchResult{}, rpcErr("push", err)
	}
	if ack.AppliedPushCursor.Less(sender) {
		return pushBatchResult{}, &CrossSideError{AppliedPushCursor: ack.AppliedPushCursor, PushCursor: sender}
	}
	if err := st.WritePushCursor(backend, sender); err != nil {
		return pushBatchResult{}, err
	}
	res.Pushed = selected
	res.Cursor = sender
	res.Complete = !sender.Less(tgt)
	return res, nil
}

// pushOnce is SPEC 6.5: push everything up to the target the first batch
// captures, in batches bounded by budget (PUSH_BATCH by default).
func pushOnce(ctx context.Context, st Store, backend string, rpc SyncRPC, budget PushBudget) (int, error) {
	var (
		target *Cursor
		pushed int
		last   Cursor
	)
	// Every call that is not complete strictly advances the push cursor
	// toward a fixed target through a finite log; the progress check turns a
	// concurrent reset or a misbehaving store into an error, not a spin.
	for {
		r, err := pushBatch(ctx, st, backend, rpc, target, budget.MaxEntries, budget.MaxBytes)
		if err != nil {
			return pushed, err
		}
		pushed += r.Pushed
		if r.Complete {
			return pushed, nil
		}
		if target == nil {
			t := r.TargetCursor
			target = &t
		} else if !last.Less(r.Cursor) {
			return pushed, fmt.Errorf("pushOnce: push cursor stuck at %s short of %s", r.Cursor, *target)
		}
		last = r.Cursor
	}
}
