package oracle

import (
	"fmt"
	"strings"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
)

// FIFOChecker is the checker of property fifo (SPEC 5.1, 11.9): mutating
// operations of one backend never overlap, and different backends never
// wait for each other. It holds four rules, each read from a record:
//
//   - the intent store's record: no other actor writes a backend's intent
//     between an actor's get and its own write (FIFOLedger);
//   - the runtime's record: no fetch or push lands inside another actor's
//     open change stream (SyncSpans);
//   - the runtime's record again, per finished operation: from a retry's,
//     an explicit pull's or an exec's post-command step's first call on its
//     backend to its last, and between an exec's pre-exec pushes, no other
//     actor fetches or pushes (retrySpanOverlap, pushRunOverlap);
//   - the gates the workspace parks on: an operation of one backend never
//     parks on a gate an operation of another backend made.
type FIFOChecker struct {
	names   []string
	records history.Records
	store   FIFOLedger
	spans   SyncSpans
}

// Reads: host starts (every operation is cut), both records, gate waits
// and finished operations.
func (c *FIFOChecker) Reads() history.Kinds {
	return history.Of(history.HostStart, history.RuntimeCall, history.StoreCall, history.GateWait, history.OpReturned)
}

// Begin starts a run.
func (c *FIFOChecker) Begin(s history.Setup, r history.Records) {
	c.names, c.records = s.Backends, r
	c.store.Reset()
	c.spans.Reset()
}

// Observe reads one event.
func (c *FIFOChecker) Observe(e *history.Event, rep history.Reporter) {
	switch e.Kind {
	case history.HostStart:
		c.store.Reset()
		c.spans.Reset()
	case history.RuntimeCall:
		if detail, overlapped := c.spans.Note(e.Backend, c.names[e.Backend], *e.Runtime); overlapped {
			rep.Violate("fifo", detail)
		}
	case history.StoreCall:
		if detail, overlapped := c.store.Note(*e.Store); overlapped {
			rep.Violate("fifo", detail)
		}
	case history.GateWait:
		if detail, crossed := crossBackendWait(e.Actor, e.Maker); crossed {
			rep.Violate("fifo", detail)
		}
	case history.OpReturned:
		if detail, overlapped := c.opSpan(e); overlapped {
			rep.Violate("fifo", detail)
		}
	}
}

// crossBackendWait is the gate rule: every gate the workspace parks on is
// a backend's own — a FIFO entry, a shared connect, a pending disconnect,
// each keyed by the backend id — so an operation's actor that parks on a
// gate another backend's operation made waits for that backend: a FIFO kept
// as one queue for every backend, or a connect slot shared across ids, is
// seen the first time two backends meet in it, however short the wait.
// Actors without a backend (the Waker's timer callback, ticks) and gates
// made outside any actor are not judged.
func crossBackendWait(waiter, maker string) (string, bool) {
	wb, ok := actorBackend(waiter)
	if !ok {
		return "", false
	}
	mb, ok := actorBackend(maker)
	if !ok || mb == wb {
		return "", false
	}
	return fmt.Sprintf("%s parks on a gate %s made: an operation on backend %s waits for one on %s, and different backends never wait for each other (SPEC 5.1)",
		waiter, maker, wb, mb), true
}

// actorBackend is the backend label an operation's actor name ends in
// ("#12.exec.b3": b3), or false for an actor of no backend.
func actorBackend(name string) (string, bool) {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return "", false
	}
	label := name[i+1:]
	if len(label) < 2 || label[0] != 'b' || strings.TrimLeft(label[1:], "0123456789") != "" {
		return "", false
	}
	return label, true
}

// opSpan is the whole-operation rule: RetryPendingSync runs entirely
// inside one entry of its backend's FIFO, and so do every push and pull of
// any other operation, so from a retry's first runtime call on its backend
// to its last no other actor fetches from or pushes to that backend. The
// change-stream rule only covers a stream from its fetch to its close; a
// push taken out of the FIFO that lands during the retry's connect,
// reconcile or runtime check is seen here. Calls that run outside the FIFO
// — connects (shared or for a spawn), the spawn, event streams, closes,
// watermarks — are not fetches or pushes. An operation a cancel landed on
// is judged by property cancel instead.
//
// The same holds for the other operations that run whole inside FIFO
// entries: an explicit Pull (serialize around runWithReconnect, SPEC 5.1)
// and an exec's post-command step (the wait-mode pull, or the deferred
// capture inside its scheduling entry; the scheduling after a failed wait
// pull makes no runtime call), which starts after the command's event
// stream was read and closed (SPEC 3.2) — the close and a handle closed by
// invalidation run outside the FIFO and do not start it.
func (c *FIFOChecker) opSpan(e *history.Event) (string, bool) {
	op := e.Op
	if op.CancelHit || op.Cancelled || op.Kind == "write" || op.Kind == "delete" {
		return "", false
	}
	rec := c.records.RuntimeSince(e.Backend, op.StepMarks[e.Backend])
	what := op.Kind
	name := c.names[e.Backend]
	if op.Kind == "exec" {
		if i, first, last := pushRunOverlap(rec, e.Actor); i >= 0 {
			o := &rec[i]
			return fmt.Sprintf("%s's %s #%d on %s landed inside %s's pre-exec push (its pushes #%d to #%d): two sync operations of one backend overlapped (SPEC 5.1, 11.9)",
				o.Actor, o.Op, o.Seq, name, e.Actor, rec[first].Seq, rec[last].Seq), true
		}
		rec, what = postCommand(rec, e.Actor), "post-command step"
	}
	if i, first, last := retrySpanOverlap(rec, e.Actor); i >= 0 {
		o := &rec[i]
		return fmt.Sprintf("%s's %s #%d on %s landed inside %s's %s (its calls #%d to #%d): two sync operations of one backend overlapped (SPEC 5.1, 11.9)",
			o.Actor, o.Op, o.Seq, name, e.Actor, what, rec[first].Seq, rec[last].Seq), true
	}
	return "", false
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
