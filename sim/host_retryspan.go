package sim

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
)

// judgeRetrySpan is the whole-operation half of property fifo (SPEC 5.1,
// 11.9): RetryPendingSync runs entirely inside one entry of its backend's
// FIFO, and so do every push and pull of any other operation, so from a
// retry's first runtime call on its backend to its last no other actor
// fetches from or pushes to that backend. The change-stream half
// (oracle.SyncSpans) only covers a stream from its fetch to its close; a push
// taken out of the FIFO that lands during the retry's connect, reconcile
// or runtime check is seen here. Calls that run outside the FIFO —
// connects (shared or for a spawn), the spawn, event streams, closes,
// watermarks — are not fetches or pushes. Read from the runtime's record
// only; a cancelled retry is judged by property cancel instead.
//
// The same holds for the other operations that run whole inside FIFO
// entries: an explicit Pull (serialize around runWithReconnect, SPEC 5.1)
// and an exec's post-command step (the wait-mode pull, or the deferred
// capture inside its scheduling entry; the scheduling after a failed wait
// pull makes no runtime call), which starts after the command's event
// stream was read and closed (SPEC 3.2) — the close and a handle closed by
// invalidation run outside the FIFO and do not start it.
func (h *Host) judgeRetrySpan(f finished) *Violation {
	if h.hit[f.actor] {
		return nil
	}
	rec := h.recordSince(f.backend, f.marks[f.backend])
	what := f.kind
	if f.kind == "exec" {
		if i, first, last := pushRunOverlap(rec, f.actor); i >= 0 {
			c := &rec[i]
			return h.fail("fifo", fmt.Sprintf("%s's %s #%d on %s landed inside %s's pre-exec push (its pushes #%d to #%d): two sync operations of one backend overlapped (SPEC 5.1, 11.9)",
				c.Actor, c.Op, c.Seq, h.names[f.backend], f.actor, rec[first].Seq, rec[last].Seq))
		}
		rec, what = postCommand(rec, f.actor), "post-command step"
	}
	if i, first, last := retrySpanOverlap(rec, f.actor); i >= 0 {
		c := &rec[i]
		return h.fail("fifo", fmt.Sprintf("%s's %s #%d on %s landed inside %s's %s (its calls #%d to #%d): two sync operations of one backend overlapped (SPEC 5.1, 11.9)",
			c.Actor, c.Op, c.Seq, h.names[f.backend], f.actor, what, rec[first].Seq, rec[last].Seq))
	}
	return nil
}

// pushRunOverlap is the span rule for an exec's pre-exec pushes: each pass's
// pushOnce is one FIFO entry whose only runtime calls are its batches, so
// between two pushes of the actor with no other call of its own between
// them, no other actor fetches or pushes. It returns the index of the
// first such call and the run's first and last push; -1 when none.
func pushRunOverlap(rec []faults.Call, actor string) (overlap, first, last int) {
	first, last = -1, -1
	for i := range rec {
		c := &rec[i]
		if c.Actor != actor {
			continue
		}
		if c.Op != faults.OpPush {
			first = -1 // a call of its own between: the run (pass) is over
			continue
		}
		if first >= 0 {
			for j := last + 1; j < i; j++ {
				if o := &rec[j]; o.Op == faults.OpFetch || o.Op == faults.OpPush {
					return j, first, i
				}
			}
		} else {
			first = i
		}
		last = i
	}
	return -1, -1, -1
}

// postCommand returns rec from an exec actor's first call of its
// post-command step: after its last event-stream read, closes skipped.
// Nothing when the command never streamed.
func postCommand(rec []faults.Call, actor string) []faults.Call {
	from := -1
	for i := range rec {
		if rec[i].Actor == actor && rec[i].Op == faults.OpEventNext {
			from = i + 1
		}
	}
	if from < 0 {
		return nil
	}
	for i := from; i < len(rec); i++ {
		if c := &rec[i]; c.Actor == actor && c.Op != faults.OpEventClose && c.Op != faults.OpClose {
			return rec[i:]
		}
	}
	return nil
}

// retrySpanOverlap returns the index in rec of the first fetch or push by
// another actor between actor's first and last call, and those two
// indexes; -1 when there is none.
func retrySpanOverlap(rec []faults.Call, actor string) (overlap, first, last int) {
	first, last = -1, -1
	for i := range rec {
		if rec[i].Actor == actor {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	for i := first + 1; first >= 0 && i < last; i++ {
		if c := &rec[i]; c.Actor != actor && (c.Op == faults.OpFetch || c.Op == faults.OpPush) {
			return i, first, last
		}
	}
	return -1, first, last
}
