package ledger

import (
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
)

// stream builds one actor's pull: a fetch opening stream id, then a
// stream-next per entry revision, then a close.
func stream(seq *int, id int, revs ...int64) []faults.Call {
	next := func(c faults.Call) faults.Call { *seq++; c.Seq, c.Actor, c.Stream = *seq, "#1.retry.b0", id; return c }
	out := []faults.Call{next(faults.Call{Op: faults.OpFetch})}
	for _, r := range revs {
		e := scheduler.At(r)
		out = append(out, next(faults.Call{Op: faults.OpStreamNext, Entry: &e}))
	}
	return append(out, next(faults.Call{Op: faults.OpStreamClose}))
}

// TestServedLedgerBoundsApplied: an entry served for the first time counts
// toward the lower bound of Applied, one served before does not, every
// served entry counts toward the upper bound; a new log epoch or a failure
// after the last fetch leaves the lower bound unknown.
func TestServedLedgerBoundsApplied(t *testing.T) {
	var l Served
	if !l.HasMoved(0) {
		t.Fatal("a backend never drained is known to hold still")
	}
	seq := 0
	first := stream(&seq, 1, 1, 2)
	l.Note(0, 0, first)
	if lo, hi, known := l.AppliedBounds(0, first); lo != 2 || hi != 2 || !known {
		t.Errorf("first pull of two new entries: bounds %d..%d (known %t), want 2..2", lo, hi, known)
	}
	// The next drain serves entry 2 again and entry 3 for the first time.
	again := stream(&seq, 2, 2, 3)
	l.Note(0, 0, again)
	if !l.IsFresh(0, again[2].Seq) || l.IsFresh(0, again[1].Seq) {
		t.Errorf("fresh: entry 3 %t (want true), entry 2 again %t (want false)", l.IsFresh(0, again[2].Seq), l.IsFresh(0, again[1].Seq))
	}
	if lo, hi, known := l.AppliedBounds(0, again); lo != 1 || hi != 2 || !known {
		t.Errorf("one new entry of two: bounds %d..%d (known %t), want 1..2", lo, hi, known)
	}
	// Two passes in one pull: only the last stream's fresh entries bound it
	// from below, every entry served bounds it from above.
	passes := append(stream(&seq, 3, 4), stream(&seq, 4, 5, 6)...)
	l.Note(0, 0, passes)
	if lo, hi, known := l.AppliedBounds(0, passes); lo != 2 || hi != 3 || !known {
		t.Errorf("two passes: bounds %d..%d (known %t), want 2..3", lo, hi, known)
	}
	// A failure after the last fetch: the result is a replay's.
	failed := stream(&seq, 5, 7)
	seq++
	failed = append(failed, faults.Call{Seq: seq, Op: faults.OpConnect, Err: "refused"})
	l.Note(0, 0, failed)
	if lo, hi, known := l.AppliedBounds(0, failed); lo != 0 || hi != 1 || known {
		t.Errorf("failed after the fetch: bounds %d..%d (known %t), want 0..1 unknown", lo, hi, known)
	}
	// A new log: the cursors may be reused for new content, nothing is known.
	moved := stream(&seq, 6, 1)
	l.Note(0, 1, moved)
	if !l.HasMoved(0) {
		t.Error("a new epoch did not mark the log moved")
	}
	if _, _, known := l.AppliedBounds(0, moved); known {
		t.Error("a moved log gave a lower bound")
	}
	// On the new log, entry 1 was served fresh (the old ledger is gone).
	l.Note(0, 1, nil)
	again1 := stream(&seq, 7, 1)
	l.Note(0, 1, again1)
	if lo, _, known := l.AppliedBounds(0, again1); lo != 0 || !known {
		t.Errorf("entry 1 served twice on the new log: lower bound %d (known %t), want 0", lo, known)
	}
}
