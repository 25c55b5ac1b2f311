package oracle

import (
	"fmt"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
)

// BatchBudgetChecker is the checker of property batch-budget for a retry
// (SPEC 6.4 step 7): every stream is read as planBatch says — never past
// the point the entry or byte budget stops it, never again once the
// wall-time budget has surely run out, and, closed before its end without
// a failure, only where the entry or byte budget stops it or the wall-time
// budget may have run out.
//
// The wall-time budget: before each read of a change stream, a batch whose
// budget sets maxWallTime stops once the time since the batch started is
// at least that. The checker never reads the SUT's clock readings. It
// bounds them with the times the runtime recorded its calls
// (faults.Call.At, stamped after each call's blocking point) and the time
// the retry's actor first ran (Op.Begun):
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
type BatchBudgetChecker struct {
	setup history.Setup
}

// Reads: finished operations.
func (c *BatchBudgetChecker) Reads() history.Kinds { return history.Of(history.OpReturned) }

// Begin starts a run.
func (c *BatchBudgetChecker) Begin(s history.Setup, _ history.Records) { c.setup = s }

// Observe judges one finished retry; a cancelled one is property cancel's.
func (c *BatchBudgetChecker) Observe(e *history.Event, rep history.Reporter) {
	op := e.Op
	if op.Kind != "retry" || op.Cancelled {
		return
	}
	if detail := c.judge(e.Actor, op, rep); detail != "" {
		rep.Violate("batch-budget", detail)
	}
}

func (c *BatchBudgetChecker) judge(actor string, op *history.Op, rep history.Reporter) string {
	budget, calls := c.setup.Budget, op.Calls
	wall := wallBudget{limit: budget.MaxWallTime, begun: op.Begun}
	if o, ok := wallOverRead(calls, wall); ok {
		return fmt.Sprintf("%s: read %d of the stream of fetch #%d came at least %v after the batch started, past its wall-time budget of %v (SPEC 6.4 step 7)",
			actor, o.read, o.fetchSeq, o.elapsed, wall.limit)
	}
	entries := streamEntries(calls)
	for _, p := range faults.SummarisePulls(calls, actor) {
		stream := pullStream(calls, p.FetchSeq)
		plan := planBatch(entries[stream], budget)
		if plan.overRead > 0 {
			return fmt.Sprintf("%s: read %d entries of fetch #%d, %d past where the budget {entries %d, bytes %d} stops it",
				actor, p.Entries, p.FetchSeq, plan.overRead, budget.MaxEntries, budget.MaxBytes)
		}
		if plan.byteStop && c.setup.DefaultBudget {
			rep.Reach("byte-stop-default") // SPEC 2.1's 4 MiB stopped a batch
		}
		wallMay := wall.mayHaveRunOut(streamClosedAt(calls, stream))
		if p.ClosedEarly && !plan.entryStop && !plan.byteStop && wallMay && op.Err == nil {
			rep.Reach("retry/wall-stop") // a stop only the wall budget explains
		}
		if p.ClosedEarly && p.Entries > 0 && !plan.entryStop && !plan.byteStop && !wallMay {
			return fmt.Sprintf("%s: stopped fetch #%d after %d entries, before its end and under the budget {entries %d, bytes %d, wall time %v}",
				actor, p.FetchSeq, p.Entries, budget.MaxEntries, budget.MaxBytes, budget.MaxWallTime)
		}
	}
	return ""
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

// pullStream is the stream id of the fetch with Seq seq (0: none).
func pullStream(calls []faults.Call, seq int) int {
	for _, c := range calls {
		if c.Seq == seq {
			return c.Stream
		}
	}
	return 0
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
