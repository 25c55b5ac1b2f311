package sim

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// batchPlan is what SPEC 6.4 step 7 must do with one stream's entries, in
// the order the remote served them, under a budget: how many it applies,
// whether the byte budget stops it before an entry, and where its cursor
// ends. The entries and their sizes are the remote's; the stopping rule is
// the contract's (with this project's byte-budget deviation, docs/SPEC.md
// 6.4): while fewer than MaxEntries are applied, read one entry; once some
// bytes moved, an entry that would take the call past MaxBytes stops it
// unapplied. The SUT's own reading is then compared with the plan.
type batchPlan struct {
	applied   int
	cursor    *scheduler.Cursor // the last entry applied (nil: none)
	byteStop  bool              // the last entry read stopped the batch unapplied
	overRead  int               // entries read past the point the plan stops (0: none)
	entryStop bool              // the entry budget is used up
}

// servedEntry is one entry a change stream served: its cursor and content
// size, all planBatch reads of the call (a whole faults.Call is a few
// hundred bytes, and a batch holds up to 64 of them).
type servedEntry struct {
	cursor scheduler.Cursor
	bytes  int64
}

// servedOf is the entry a stream-next call served; c.Entry must be set.
func servedOf(c *faults.Call) servedEntry { return servedEntry{cursor: *c.Entry, bytes: c.EntryBytes} }

// planBatch replays the stopping rule over entries (each the served
// cursor and its content size).
func planBatch(entries []servedEntry, budget workspace.Budget) batchPlan {
	var p batchPlan
	var bytes int64
	for i, e := range entries {
		if p.applied == budget.MaxEntries || p.byteStop {
			p.overRead = len(entries) - i
			break
		}
		if bytes > 0 && bytes+e.bytes > budget.MaxBytes {
			p.byteStop = true
			continue
		}
		bytes += e.bytes
		p.applied++
		c := e.cursor
		p.cursor = &c
	}
	p.entryStop = p.applied == budget.MaxEntries
	return p
}

// streamEntries groups an actor's served entries by stream, in order.
func streamEntries(calls []faults.Call) map[int][]servedEntry {
	out := map[int][]servedEntry{}
	for i := range calls {
		if c := &calls[i]; c.Op == faults.OpStreamNext && c.Entry != nil && c.Err == "" {
			out[c.Stream] = append(out[c.Stream], servedOf(c))
		}
	}
	return out
}

// judgeBatches is property batch-budget for a retry: every stream is read
// as planBatch says — never past the point the budget stops it, and,
// closed before its end without a failure, only where the entry or byte
// budget stops it or the wall-time budget may have run out
// (host_wallbudget.go).
func (h *Host) judgeBatches(f finished, calls []faults.Call) *Violation {
	budget := h.budget()
	wall := h.wallOf(f)
	if v := h.judgeWallReads(f, calls, wall); v != nil {
		return v
	}
	entries := streamEntries(calls)
	for _, p := range faults.SummarisePulls(calls, f.actor) {
		stream := pullStream(calls, p.FetchSeq)
		es := entries[stream]
		plan := planBatch(es, budget)
		if plan.overRead > 0 {
			return h.fail("batch-budget", fmt.Sprintf("%s: read %d entries of fetch #%d, %d past where the budget {entries %d, bytes %d} stops it",
				f.actor, p.Entries, p.FetchSeq, plan.overRead, budget.MaxEntries, budget.MaxBytes))
		}
		if plan.byteStop && h.cfg.Budget == nil {
			h.stats.Faults["byte-stop-default"]++ // reachability: SPEC 2.1's 4 MiB stopped a batch
		}
		wallMay := wall.mayHaveRunOut(streamClosedAt(calls, stream))
		if p.ClosedEarly && !plan.entryStop && !plan.byteStop && wallMay && f.err == nil {
			h.stats.Retry["wall-stop"]++ // reachability: a stop only the wall budget explains
		}
		if p.ClosedEarly && p.Entries > 0 && !plan.entryStop && !plan.byteStop && !wallMay {
			return h.fail("batch-budget", fmt.Sprintf("%s: stopped fetch #%d after %d entries, before its end and under the budget {entries %d, bytes %d, wall time %v}",
				f.actor, p.FetchSeq, p.Entries, budget.MaxEntries, budget.MaxBytes, budget.MaxWallTime))
		}
	}
	return nil
}

// pullStream is the stream id of the fetch with Seq seq (0: none).
func pullStream(calls []faults.Call, seq int) int {
	for _, c := range calls {
		if c.Seq == seq {
			return c.Stream
		}
	}
	return 0
}

// budget is the batch budget every retry runs with.
func (h *Host) budget() workspace.Budget {
	if h.cfg.Budget != nil {
		return *h.cfg.Budget
	}
	return specDefaultBudget
}

// specDefaultBudget is SPEC 6.4's default batch budget, written here rather
// than read from workspace.DefaultBudget: the oracle must not share a
// constant with the code it judges.
var specDefaultBudget = workspace.Budget{MaxEntries: 64, MaxBytes: 4 << 20}
