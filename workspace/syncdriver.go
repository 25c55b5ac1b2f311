package workspace

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace/internal/plant"
)

// The sync driver of SPEC 6: package functions the Workspace core calls with
// a connected handle's SyncRPC. They hold no state of their own (every
// cursor lives in the Store), start no goroutines, read time only from the
// clock they are given, and take no lock around the rpc calls, so a
// simulator can switch actors at every call into rpc.

// pullBatchSize is PULL_BATCH_SIZE: pullOnce applies and checkpoints the
// stream in batches of at most this many entries (SPEC 6.3 step 7).
const pullBatchSize = 256

// pullResult is the outcome of pullOnce / pullBatch.
type pullResult struct {
	Complete     bool     // pullBatch: cursor reached target; pullOnce: always true on success
	Applied      int      // entries that changed local files (SPEC 6.7)
	Skipped      []string // always empty here (read-only mounts are out of scope) but keep the field, non-nil empty slice
	Entries      int      // entries read and applied
	Bytes        int64    // content bytes of those entries
	Cursor       Cursor   // how far this call got (pullOnce: the snapshot it drained)
	TargetCursor Cursor   // what complete means for this call
}

// envelopeCloser closes a fetch envelope's stream at most once. Every pull
// defers close() right after FetchChanges succeeds, so the stream is
// disposed exactly once on every exit path (SPEC 6.3 step 9), including the
// divergence retry, which closes it early before recursing.
type envelopeCloser struct {
	stream ChangeStream
	done   bool
}

func (c *envelopeCloser) close() {
	if c == nil || c.done || c.stream == nil {
		return
	}
	c.done = true
	// NB: a failing Close is a failed cancel of a stream we no longer read;
	// the TypeScript disposes best effort, so its error is dropped.
	_ = c.stream.Close()
}

// fetchEnvelope calls FetchChanges and checks the envelope's shape.
func fetchEnvelope(ctx context.Context, rpc SyncRPC, req FetchRequest) (*FetchEnvelope, *envelopeCloser, error) {
	env, err := rpc.FetchChanges(ctx, req)
	if err != nil {
		return nil, nil, rpcErr("fetchChanges", err)
	}
	if env == nil {
		return nil, nil, errors.New("fetchChanges returned no envelope")
	}
	closer := &envelopeCloser{stream: env.Changes}
	if env.Changes == nil {
		return nil, closer, errors.New("fetchChanges returned an envelope without a change stream")
	}
	return env, closer, nil
}

// nextChange reads one entry; done is true at the end of the stream.
func nextChange(ctx context.Context, s ChangeStream) (c Change, done bool, err error) {
	c, err = s.Next(ctx)
	if errors.Is(err, io.EOF) {
		return Change{}, true, nil
	}
	if err != nil {
		return Change{}, false, rpcErr("fetchChanges.next", err)
	}
	return c, false, nil
}

func changeBytes(c Change) int64 {
	if c.Deleted {
		return 0
	}
	return int64(len(c.Content))
}

// pullOnce is SPEC 6.3: drain the remote's snapshot, applying and
// checkpointing every pullBatchSize entries.
func pullOnce(ctx context.Context, st Store, backend string, rpc SyncRPC, mut plant.Set) (pullResult, error) {
	return pullOnceAttempt(ctx, st, backend, rpc, mut, false)
}

func pullOnceAttempt(ctx context.Context, st Store, backend string, rpc SyncRPC, mut plant.Set, retried bool) (pullResult, error) {
	after, err := st.FetchCursor(backend)
	if err != nil {
		return pullResult{}, err
	}
	// NB: the scalar only, not the path-aware push cursor (see the QUIRK at
	// the reset below).
	localPushRev, err := st.PushRev(backend)
	if err != nil {
		return pullResult{}, err
	}
	env, closer, err := fetchEnvelope(ctx, rpc, FetchRequest{After: after})
	defer closer.close() // nil-safe: FetchChanges may have failed
	if err != nil {
		return pullResult{}, err
	}

	pushDiverged := env.AppliedPushCursor.Rev < localPushRev // rev only
	fetchDiverged := env.CurrentCursor.Less(after)           // full compare
	if !retried && (pushDiverged || fetchDiverged) {
		closer.close()
		// QUIRK (SPEC 6.3): only the legacy scalar is reset. A path-aware
		// push row with rev > 0 keeps winning in PushCursor until pullBatch
		// or reconcile writes the push cursor.
		if pushDiverged {
			if err := st.SetPushRev(backend, 0); err != nil {
				return pullResult{}, err
			}
		}
		if fetchDiverged {
			if err := st.WriteFetchCursor(backend, scheduler.Baseline); err != nil {
				return pullResult{}, err
			}
		}
		return pullOnceAttempt(ctx, st, backend, rpc, mut, true)
	}
	if env.AppliedPushCursor.Less(scheduler.At(localPushRev)) {
		return pullResult{}, &CrossSideError{AppliedPushCursor: env.AppliedPushCursor, PushCursor: scheduler.At(localPushRev)}
	}

	current := env.CurrentCursor
	res := pullResult{Complete: true, Skipped: []string{}, Cursor: after, TargetCursor: current}
	if current.Rev < after.Rev || (current.Rev == after.Rev && !after.HasPath) {
		return res, nil // nothing after our cursor; the stream is never read
	}

	// The batch grows as entries come (most pulls bring a few): a full
	// pullBatchSize buffer up front cost more than the pull itself.
	var batch []Change
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if mut.Has(plant.CursorBeforeApply) {
			// Planted bug: checkpoint the batch before applying it. A crash
			// or a failed apply in between leaves the cursor past entries
			// the host never got, and no later pull brings them.
			if _, err := st.WriteFetchCursorIfAhead(backend, batch[len(batch)-1].Cursor()); err != nil {
				return err
			}
		}
		n, err := st.ApplyUpstream(backend, batch)
		if err != nil {
			return err
		}
		res.Applied += n
		res.Entries += len(batch)
		for _, c := range batch {
			res.Bytes += changeBytes(c)
		}
		// NB: not atomic with the apply (SPEC 6.3 step 7, 8.7): a crash in
		// between replays this batch, and the idempotent apply absorbs it.
		if _, err := st.WriteFetchCursorIfAhead(backend, batch[len(batch)-1].Cursor()); err != nil {
			return err
		}
		batch = batch[:0]
		return nil
	}
	// The loop is bounded by the remote's snapshot: the stream yields each
	// path at most once in (after, current].
	for {
		c, done, err := nextChange(ctx, env.Changes)
		if err != nil {
			return pullResult{}, err
		}
		if done {
			break
		}
		batch = append(batch, c)
		if len(batch) == pullBatchSize {
			if err := flush(); err != nil {
				return pullResult{}, err
			}
		}
	}
	if err := flush(); err != nil {
		return pullResult{}, err
	}
	if _, err := st.WriteFetchCursorIfAhead(backend, current); err != nil {
		return pullResult{}, err
	}
	res.Cursor = current
	return res, nil
}

// validateBudget is the budget check of SPEC 6.4. MaxWallTime 0 means "no
// wall-time limit" (the Go Budget has no separate "absent").
func validateBudget(b Budget) error {
	if b.MaxEntries <= 0 || b.MaxEntries > maxSafeInteger {
		return errors.New("Sync batch maxEntries must be a positive safe integer")
	}
	if b.MaxBytes <= 0 || b.MaxBytes > maxSafeInteger {
		return errors.New("Sync batch maxBytes must be a positive safe integer")
	}
	if b.MaxWallTime < 0 {
		return errors.New("Sync batch maxWallTimeMs must be a positive finite number")
	}
	return nil
}

// pullBatch is SPEC 6.4: a budget-bounded pull toward target, applying and
// checkpointing one entry at a time.
func pullBatch(ctx context.Context, st Store, backend string, rpc SyncRPC, target *Cursor, budget Budget, clk clock.Clock, mut plant.Set) (pullResult, error) {
	if err := validateBudget(budget); err != nil {
		return pullResult{}, err
	}
	var started time.Time
	if budget.MaxWallTime > 0 {
		// NB: the clock is read only when a wall-time budget is set, so the
		// default budget adds no clock call (a simulator blocking point).
		if clk == nil {
			return pullResult{}, errors.New("pullBatch: a maxWallTime budget needs a clock")
		}
		started = clk.Now()
	}
	return pullBatchAttempt(ctx, st, backend, rpc, target, budget, clk, started, mut, false)
}

func pullBatchAttempt(ctx context.Context, st Store, backend string, rpc SyncRPC, target *Cursor, budget Budget,
	clk clock.Clock, started time.Time, mut plant.Set, retried bool) (pullResult, error) {
	after, err := st.FetchCursor(backend)
	if err != nil {
		return pullResult{}, err
	}
	if target != nil && !after.Less(*target) {
		// Already satisfied: no remote call, and a cursor that is already
		// past the target is left where it is.
		return pullResult{Complete: true, Skipped: []string{}, Cursor: after, TargetCursor: *target}, nil
	}
	env, closer, err := fetchEnvelope(ctx, rpc, FetchRequest{After: after, Through: target})
	defer closer.close()
	if err != nil {
		return pullResult{}, err
	}
	pushCursor, err := st.PushCursor(backend)
	if err != nil {
		return pullResult{}, err
	}

	pushDiverged := env.AppliedPushCursor.Rev < pushCursor.Rev
	fetchDiverged := env.CurrentCursor.Less(after)
	if !retried && (pushDiverged || fetchDiverged) {
		closer.close()
		if pushDiverged {
			if err := st.WritePushCursor(backend, scheduler.Baseline); err != nil {
				return pullResult{}, err
			}
		}
		if fetchDiverged {
			if err := st.WriteFetchCursor(backend, scheduler.Baseline); err != nil {
				return pullResult{}, err
			}
		}
		return pullBatchAttempt(ctx, st, backend, rpc, target, budget, clk, started, mut, true)
	}

	tgt := env.CurrentCursor
	if target != nil {
		tgt = scheduler.MinCursor(*target, env.CurrentCursor)
	}
	if env.AppliedPushCursor.Less(pushCursor) {
		return pullResult{}, &CrossSideError{AppliedPushCursor: env.AppliedPushCursor, PushCursor: pushCursor}
	}
	res := pullResult{Skipped: []string{}, Cursor: after, TargetCursor: tgt}
	if !after.Less(tgt) {
		res.Complete = true
		return res, nil
	}

	streamDone := false
	// NB (SPEC 6.4 off-by-one, QUIRK): the loop stops at MaxEntries without
	// probing the stream for its end, so a call that applies the last entry
	// reports pending and the next call completes with entries 0.
	for res.Entries < budget.MaxEntries {
		if budget.MaxWallTime > 0 && clk.Since(started) >= budget.MaxWallTime {
			break
		}
		c, done, err := nextChange(ctx, env.Changes)
		if err != nil {
			return pullResult{}, err
		}
		if done {
			streamDone = true
			break
		}
		// Deviation from SPEC 6.4 (byte budget). The TypeScript budgets the
		// missing blob chunks of an entry and always moves an entry's first
		// chunk; with blob chunking out of scope every entry is one whole
		// "chunk", so that rule would never stop anything and the byte budget
		// would be dead. Instead: an entry whose content would take bytes past
		// MaxBytes, when this call has already moved some bytes, ends the call
		// as pending before it is applied (it is redelivered next call). The
		// first entry with content always moves, so every call progresses.
		size := changeBytes(c)
		if res.Bytes > 0 && res.Bytes+size > budget.MaxBytes {
			break
		}
		if mut.Has(plant.CursorBeforeApply) {
			// Planted bug: checkpoint the entry before applying it.
			if _, err := st.WriteFetchCursorIfAhead(backend, c.Cursor()); err != nil {
				return pullResult{}, err
			}
		}
		n, err := st.ApplyUpstream(backend, []Change{c})
		if err != nil {
			return pullResult{}, err
		}
		if _, err := st.WriteFetchCursorIfAhead(backend, c.Cursor()); err != nil {
			return pullResult{}, err
		}
		res.Cursor = c.Cursor()
		res.Entries++
		res.Bytes += size
		res.Applied += n
	}
	if streamDone {
		if _, err := st.WriteFetchCursorIfAhead(backend, tgt); err != nil {
			return pullResult{}, err
		}
		res.Cursor = tgt
	}
	res.Complete = !res.Cursor.Less(tgt)
	return res, nil
}
