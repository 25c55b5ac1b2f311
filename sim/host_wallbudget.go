package sim

import (
	"fmt"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
)

// The wall-time budget (SPEC 6.4 step 7): before each read of a change
// stream, a batch whose budget sets maxWallTime stops once the time since
// the batch started is at least that. Virtual time moves inside a group
// only when a tick runs, so a batch meets its wall budget only where the
// schedule puts a tick between its start and one of its reads.
//
// The judge never reads the SUT's clock readings. It bounds them with the
// times the runtime recorded its calls (faults.Call.At, stamped after each
// call's blocking point) and the time the retry's actor first ran:
//
//   - the batch's start lies between the actor's first run and its fetch;
//   - the check before the j-th read lies between the (j−1)-th read (the
//     fetch for j = 1) and the j-th read, or the stream's close when the
//     batch stopped there instead.
//
// So the elapsed time at the check before read j is at least
// at(read j−1) − at(fetch): when that reaches the budget, read j must not
// happen. And it is at most at(close) − begun: a batch that stopped
// before its end where neither the entry nor the byte budget stops it
// must have had that much time. Between the two bounds either is right.

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

// wallOf is the wall budget of retry f.
func (h *Host) wallOf(f finished) wallBudget {
	return wallBudget{limit: h.budget().MaxWallTime, begun: f.begun}
}

// judgeWallReads is property batch-budget for the wall-time budget's
// must-stop side: no stream is read again once at least the budget has
// passed since its fetch (every read, the one that finds the end
// included, comes after a check).
func (h *Host) judgeWallReads(f finished, calls []faults.Call, w wallBudget) *Violation {
	if o, ok := wallOverRead(calls, w); ok {
		return h.fail("batch-budget", fmt.Sprintf("%s: read %d of the stream of fetch #%d came at least %v after the batch started, past its wall-time budget of %v (SPEC 6.4 step 7)",
			f.actor, o.read, o.fetchSeq, o.elapsed, w.limit))
	}
	return nil
}

// overRead is a stream read made after the wall-time budget had run out.
type overRead struct {
	read     int           // which read of the stream, from 1
	fetchSeq int           // the stream's fetch
	elapsed  time.Duration // at least this long since the batch started
}

// wallOverRead finds the first read that came after a check which must
// have found the budget spent: the time from the stream's fetch to the
// read before it is a lower bound of the elapsed time that check saw.
func wallOverRead(calls []faults.Call, w wallBudget) (overRead, bool) {
	if w.limit <= 0 {
		return overRead{}, false
	}
	var fetch *faults.Call
	var prev time.Time
	reads := 0
	for i := range calls {
		c := &calls[i]
		switch {
		case c.Op == faults.OpFetch && c.Err == "" && c.Stream != 0:
			fetch, prev, reads = c, c.At, 0
		case fetch != nil && c.Op == faults.OpStreamNext && c.Stream == fetch.Stream:
			reads++
			if elapsed := prev.Sub(fetch.At); reads > 1 && elapsed >= w.limit {
				return overRead{read: reads, fetchSeq: fetch.Seq, elapsed: elapsed}, true
			}
			prev = c.At
		}
	}
	return overRead{}, false
}

// streamClosedAt is the time stream was closed by the client (zero when
// it was not).
func streamClosedAt(calls []faults.Call, stream int) time.Time {
	for i := range calls {
		if c := &calls[i]; c.Op == faults.OpStreamClose && c.Stream == stream {
			return c.At
		}
	}
	return time.Time{}
}

// fetchTarget is where a fetch's batch aims (SPEC 6.4 step 4): the
// intent's target as the fetch passed it, bounded by the snapshot.
func fetchTarget(c *faults.Call) scheduler.Cursor {
	if c.Through == nil {
		return c.CurrentCursor
	}
	return scheduler.MinCursor(*c.Through, c.CurrentCursor)
}
