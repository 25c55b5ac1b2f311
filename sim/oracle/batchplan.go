package oracle

import (
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// The batch budget as SPEC 6.4 step 7 stops a pull, replayed from the
// entries the remote served: the model needs where a budget-stopped batch
// ended to predict a retry's outcome.

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

// wallBudget is a retry's wall-time budget as the judge bounds it.
type wallBudget struct {
	limit time.Duration // 0: none set
	begun time.Time     // the retry's actor first ran: its batch started no earlier
}

// mayHaveRunOut reports whether a check made no later than at could have
// found the budget spent.
func (w wallBudget) mayHaveRunOut(at time.Time) bool {
	return w.limit > 0 && at.Sub(w.begun) >= w.limit
}

// fetchTarget is where a fetch's batch aims (SPEC 6.4 step 4): the
// intent's target as the fetch passed it, bounded by the snapshot.
func fetchTarget(c *faults.Call) scheduler.Cursor {
	if c.Through == nil {
		return c.CurrentCursor
	}
	return scheduler.MinCursor(*c.Through, c.CurrentCursor)
}
