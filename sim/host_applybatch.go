package sim

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
)

// Property apply-batch: how a pull hands what it reads to the local store
// (SPEC 6.3 step 7, 6.4, 8.7; scenarios S10, S11 and R4). pullOnce reads
// its stream in batches of PULL_BATCH_SIZE entries: each full batch is
// applied (and checkpointed) before the next entry is read, and the rest
// after the stream's end, never after a failure (R4: the entry read
// before the stream failed is the retry's to apply). pullBatch applies
// every entry alone, right after reading it. So each apply an operation
// makes holds exactly the entries its open stream served since its last
// apply, in order, and that count is the batch size, or less only once
// the stream reached its end. Predicted from the runtime's record alone:
// the entries served, where the stream ended, and where in the record
// each apply came. A pull that applies by 255s, flushes after reading one
// entry too many, applies a partial batch after a stream failure or
// drops an entry between two batches breaks it at the apply that shows
// it; the generator's pull bursts (an exec writing 257 files, one past the
// batch) make pulls that span two batches.

// pullApplyBatch is SPEC 6.3 step 7's PULL_BATCH_SIZE.
const pullApplyBatch = 256

// applyBatchOf is the batch an operation of kind applies in: pullBatch's
// one entry for a retry, pullOnce's PULL_BATCH_SIZE for an explicit pull
// and an exec's post-command pull. Host writes apply nothing (0: not
// judged).
func applyBatchOf(kind string) int {
	switch kind {
	case "write", "delete":
		return 0
	case "retry":
		return 1
	}
	return pullApplyBatch
}

// judgeApplyBatches holds the applies actor made on backend b to the
// entries its streams served (calls: its runtime calls, in order).
func (h *Host) judgeApplyBatches(actor string, b int, calls []faults.Call, batch int) *Violation {
	if batch == 0 {
		return nil
	}
	backend := h.names[b]
	var served []scheduler.Cursor // entries of the open stream not applied yet
	stream, fetch, eof := 0, 0, false
	next, nth := 0, 0
	for _, a := range h.applies {
		if a.actor != actor || a.backend != backend {
			continue
		}
		for ; next < len(calls) && (calls[next].Seq == 0 || calls[next].Seq <= a.pos); next++ {
			c := calls[next]
			switch {
			case c.Seq == 0: // a local-store fault, placed in order
			case c.Op == faults.OpFetch:
				stream, fetch, eof, served = c.Stream, c.Seq, false, served[:0]
			case c.Op == faults.OpStreamNext && c.Stream == stream && stream != 0:
				switch {
				case c.Err != "":
					stream = 0 // a failed stream serves nothing more
				case c.EOF:
					eof = true
				case c.Entry != nil:
					served = append(served, *c.Entry)
				}
			}
		}
		nth++
		if v := h.judgeOneApply(actor, a, nth, fetch, served, eof, batch); v != nil {
			return v
		}
		served = served[:0]
	}
	return nil
}

// judgeOneApply compares the nth apply a of an operation with the entries
// served since the one before it on the stream of fetch #fetch.
func (h *Host) judgeOneApply(actor string, a appliedRec, nth, fetch int, served []scheduler.Cursor, eof bool, batch int) *Violation {
	fail := func(want string) *Violation {
		return h.fail("apply-batch", fmt.Sprintf("%s: apply %d (%s %s..%s) after fetch #%d: expected %s (SPEC 6.3 step 7, 6.4)",
			actor, nth, entriesText(a.entries), a.first, a.last, fetch, want))
	}
	n := len(served)
	switch {
	case n == 0:
		return fail("no apply: its stream served no entry since the last one")
	case a.entries != n || normalCursor(a.first) != normalCursor(served[0]) || normalCursor(a.last) != normalCursor(served[n-1]):
		return fail(fmt.Sprintf("the %s its stream served since the last apply, %s..%s", entriesText(n), served[0], served[n-1]))
	case n > batch:
		return fail(fmt.Sprintf("an apply every %d entries read", batch))
	case n < batch && !eof:
		return fail(fmt.Sprintf("a batch of %d, or the rest once the stream ended (not before, and never after it failed)", batch))
	}
	if batch == pullApplyBatch && n == batch {
		h.stats.Faults["apply-batch-full"]++ // a pull that spans batches (reach)
	}
	return nil
}

// entriesText is "1 entry" or "N entries".
func entriesText(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return fmt.Sprintf("%d entries", n)
}
