package oracle

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/sim/ledger"
	"github.com/syncsim/syncsim/workspace"
)

// AppliedChecker is the checker of properties applied and apply-batch: how
// a pull hands what it reads to the local store, and what its result says
// it changed. It follows the local store on its own model, so what each
// apply changed (LocalCall apply-upstream) is predicted, not read from the
// store, and keeps a ledger of the entries each backend's streams served
// (ledger.Served, fed at every drain of the records: Drained).
//
// applied (SPEC 1.4, 6.4, 6.7): Applied of a complete exec or retry is
// within what the record proves (at most every entry served, at least
// the entries its last stream served for the first time), and exactly what
// its last pass's applies changed, as the model counts them.
//
// apply-batch (SPEC 6.3 step 7, 6.4, 8.7; scenarios S10, S11 and R4):
// pullOnce reads its stream in batches of PULL_BATCH_SIZE entries: each
// full batch is applied (and checkpointed) before the next entry is read,
// and the rest after the stream's end, never after a failure (R4: the
// entry read before the stream failed is the retry's to apply). pullBatch
// applies every entry alone, right after reading it. So each apply an
// operation makes holds exactly the entries its open stream served since
// its last apply, in order, and that count is the batch size, or less only
// once the stream reached its end. Predicted from the runtime's record
// alone: the entries served, where the stream ended, and where in the
// record each apply came. A pull that applies by 255s, flushes after
// reading one entry too many, applies a partial batch after a stream
// failure or drops an entry between two batches breaks it at the apply
// that shows it.
type AppliedChecker struct {
	want     func(string) bool
	names    []string
	syncNone int
	records  history.Records
	local    localFollower
	served   ledger.Served
	marks    []int              // per backend: the record position the last drain reached
	applies  []appliedAt        // the applies of the step's operations, in order
	entries  []scheduler.Cursor // reused: a stream's entries not applied yet
	tail     []faults.Call      // reused: a tail actor's calls
}

// appliedAt is one apply that reached the store: the actor that made it,
// its backend, how far the backend's runtime record had got (which pass of
// the actor's operation it belongs to), the count a correct store gives,
// and the entries it carried (how many, the first and the last).
type appliedAt struct {
	actor, backend string
	pos, n         int
	entries        int
	first, last    scheduler.Cursor
}

// pullApplyBatch is SPEC 6.3 step 7's PULL_BATCH_SIZE.
const pullApplyBatch = 256

// Reads: the local store's calls, the drains of the records, finished
// operations and the liveness tail's actors, and the ends of steps and
// host starts (the applies of the step's operations are forgotten then).
func (c *AppliedChecker) Reads() history.Kinds {
	return history.Of(history.LocalCall, history.Drained, history.OpReturned, history.TailReturned, history.StepEnd, history.HostStart)
}

// Begin starts a run.
func (c *AppliedChecker) Begin(s history.Setup, r history.Records) {
	c.names, c.syncNone, c.records = s.Backends, s.SyncNone, r
	c.local.begin()
	c.served = ledger.Served{}
	c.marks = append(c.marks[:0], make([]int, len(s.Backends))...)
	clear(c.applies)
	c.applies = c.applies[:0]
}

// Observe reads one event.
func (c *AppliedChecker) Observe(e *history.Event, rep history.Reporter) {
	switch e.Kind {
	case history.LocalCall:
		n := c.local.follow(e.Local)
		if e.Local.Op == "apply-upstream" {
			c.noteApply(e, n)
		}
	case history.Drained:
		for b, mark := range e.Marks {
			calls := c.records.RuntimeSince(b, c.marks[b])
			c.served.Note(b, e.Epochs[b], calls[:mark-c.marks[b]])
			c.marks[b] = mark
		}
	case history.HostStart, history.StepEnd:
		clear(c.applies) // the actors that made them are gone, or were judged
		c.applies = c.applies[:0]
	case history.OpReturned:
		c.judge(e, rep)
	case history.TailReturned:
		// Both tail pulls are pullOnce's (the push between them applies
		// nothing): the actor's calls since the tail began.
		c.tail = c.tail[:0]
		for _, call := range c.records.RuntimeSince(e.Backend, e.Op.StepMarks[e.Backend]) {
			if call.Actor == e.Actor {
				c.tail = append(c.tail, call)
			}
		}
		c.applyBatches(e, c.tail, pullApplyBatch, rep)
		clear(c.tail)
	}
}

func (c *AppliedChecker) noteApply(e *history.Event, n int) {
	l := e.Local
	actor := e.Actor
	if actor == "" {
		actor = "host"
	}
	a := appliedAt{actor: actor, backend: l.Store, pos: l.Pos, n: n, entries: len(l.Changes)}
	if len(l.Changes) > 0 {
		a.first, a.last = l.Changes[0].Cursor(), l.Changes[len(l.Changes)-1].Cursor()
	}
	c.applies = append(c.applies, a)
}

func (c *AppliedChecker) report(rep history.Reporter, property, detail string) bool {
	if c.want == nil || c.want(property) {
		rep.Violate(property, detail)
		return true
	}
	return false
}

// judge holds one finished operation's Applied and applies.
func (c *AppliedChecker) judge(e *history.Event, rep history.Reporter) {
	op := e.Op
	if op.Cancelled {
		return // property cancel's
	}
	switch op.Kind {
	case "exec":
		after := lastExecCall(op.Calls) + 1
		if after > 0 && op.Mode != workspace.SyncDefer && e.Backend != c.syncNone &&
			op.Err == nil && op.Exec.Sync.Status == workspace.SyncComplete &&
			c.applied(e, op.Calls[after:], op.Exec.Sync.Applied, rep) {
			return
		}
	case "retry":
		if op.Err == nil && op.Retry.Status == workspace.RetryComplete && c.applied(e, op.Calls, op.Retry.Applied, rep) {
			return
		}
	case "pull":
		if op.Err == nil && c.applied(e, op.Calls, op.Pull.Applied, rep) {
			return
		}
	}
	if batch := applyBatchOf(op.Kind); batch > 0 {
		c.applyBatches(e, op.Calls, batch, rep)
	}
}

// applied is property applied for a complete result: Applied is exact
// within what the record proves (SPEC 1.4: entries applied in this call).
// It reports whether it reported.
func (c *AppliedChecker) applied(e *history.Event, calls []faults.Call, applied int, rep history.Reporter) bool {
	lo, hi, loKnown := c.served.AppliedBounds(e.Backend, calls)
	if applied > hi {
		return c.report(rep, "applied", fmt.Sprintf("%s: expected applied <= %d (the entries served to it), got %d", e.Actor, hi, applied))
	}
	if loKnown && applied < lo {
		return c.report(rep, "applied", fmt.Sprintf("%s: applied=%d, but its last stream served %d entries never seen before, each new content", e.Actor, applied, lo))
	}
	if want := c.appliedExact(e, calls); applied != want {
		return c.report(rep, "applied", fmt.Sprintf("%s: expected applied=%d (what its last pass's applies changed in the local store, SPEC 6.7), got %d", e.Actor, want, applied))
	}
	return false
}

// appliedExact is the Applied a complete pull must report: what the applies
// of its last pass changed, as the model counts them. calls are the actor's
// runtime calls of the pull, in order, with its local-store faults in place.
// A failure ends a pass and its replay starts at the next runtime call, so
// the last pass's applies are those made after the runtime record reached
// the first call following the last failure (a stream closed with an error
// ends nothing: the pull had already stopped reading it).
func (c *AppliedChecker) appliedExact(e *history.Event, calls []faults.Call) int {
	from := -1
	open := true // looking for the first runtime call from here on
	for _, call := range calls {
		if call.Seq != 0 && open {
			from, open = call.Seq, false
		}
		if call.Err != "" && call.Op != faults.OpStreamClose {
			if call.Seq != 0 {
				from, open = call.Seq, false
			} else {
				open = true
			}
		}
	}
	if open {
		return 0 // no runtime call after the last failure: nothing fetched, nothing applied
	}
	n := 0
	for _, a := range c.applies {
		if a.actor == e.Actor && a.backend == c.names[e.Backend] && a.pos >= from {
			n += a.n
		}
	}
	return n
}

// applyBatchOf is the batch an operation of kind applies in: pullBatch's
// one entry for a retry, pullOnce's PULL_BATCH_SIZE for an explicit pull
// and an exec's post-command pull. Other kinds are not judged (0).
func applyBatchOf(kind string) int {
	switch kind {
	case "exec", "pull":
		return pullApplyBatch
	case "retry":
		return 1
	}
	return 0 // a host write or delete, or the tail's own (TailReturned judges the tail)
}

// applyBatches is apply-batch: it holds the applies the event's actor
// made on its backend to the entries its streams served (calls: its
// runtime calls, in order). It reports whether it reported.
func (c *AppliedChecker) applyBatches(e *history.Event, calls []faults.Call, batch int, rep history.Reporter) bool {
	actor, backend := e.Actor, c.names[e.Backend]
	served := c.entries[:0] // entries of the open stream not applied yet
	defer func() { c.entries = served[:0] }()
	stream, fetch, eof := 0, 0, false
	next, nth := 0, 0
	for _, a := range c.applies {
		if a.actor != actor || a.backend != backend {
			continue
		}
		for ; next < len(calls) && (calls[next].Seq == 0 || calls[next].Seq <= a.pos); next++ {
			call := &calls[next]
			switch {
			case call.Seq == 0: // a local-store fault, placed in order
			case call.Op == faults.OpFetch:
				stream, fetch, eof, served = call.Stream, call.Seq, false, served[:0]
			case call.Op == faults.OpStreamNext && call.Stream == stream && stream != 0:
				switch {
				case call.Err != "":
					stream = 0 // a failed stream serves nothing more
				case call.EOF:
					eof = true
				case call.Entry != nil:
					served = append(served, *call.Entry)
				}
			}
		}
		nth++
		if detail := oneApply(actor, a, nth, fetch, served, eof, batch); detail != "" {
			return c.report(rep, "apply-batch", detail)
		}
		if batch == pullApplyBatch && len(served) == batch {
			rep.Reach("apply-batch-full") // a pull that spans batches
		}
		served = served[:0]
	}
	return false
}

// oneApply compares the nth apply a of an operation with the entries
// served since the one before it on the stream of fetch #fetch; "" when
// they agree.
func oneApply(actor string, a appliedAt, nth, fetch int, served []scheduler.Cursor, eof bool, batch int) string {
	fail := func(want string) string {
		return fmt.Sprintf("%s: apply %d (%s %s..%s) after fetch #%d: expected %s (SPEC 6.3 step 7, 6.4)",
			actor, nth, entriesText(a.entries), a.first, a.last, fetch, want)
	}
	n := len(served)
	switch {
	case n == 0:
		return fail("no apply: its stream served no entry since the last one")
	case a.entries != n || NormalCursor(a.first) != NormalCursor(served[0]) || NormalCursor(a.last) != NormalCursor(served[n-1]):
		return fail(fmt.Sprintf("the %s its stream served since the last apply, %s..%s", entriesText(n), served[0], served[n-1]))
	case n > batch:
		return fail(fmt.Sprintf("an apply every %d entries read", batch))
	case n < batch && !eof:
		return fail(fmt.Sprintf("a batch of %d, or the rest once the stream ended (not before, and never after it failed)", batch))
	}
	return ""
}

// entriesText is "1 entry" or "N entries".
func entriesText(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return fmt.Sprintf("%d entries", n)
}
