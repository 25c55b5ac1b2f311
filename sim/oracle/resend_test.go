package oracle

import (
	"strconv"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
)

// TestResendMarks feeds the watch marks and pushes directly: a mark
// applies only to pushes after it in the record and on its log epoch, and
// the mark never goes back within an epoch.
func TestResendMarks(t *testing.T) {
	var w ResendWatch
	w.Init(1)
	at := func(rev int64, path string) scheduler.Cursor { return scheduler.AtPath(rev, path) }
	push := func(seq, epoch int, first scheduler.Cursor) faults.Call {
		return faults.Call{Seq: seq, Actor: "#9.exec.b0", Op: faults.OpPush, Changes: 1, FirstChange: first, LogEpoch: epoch}
	}
	for _, m := range []PushMark{
		{Seq: 2, Epoch: 0, Cursor: scheduler.At(3)},
		{Seq: 4, Epoch: 0, Cursor: scheduler.At(1)}, // lower: the mark stays at 3
		{Seq: 6, Epoch: 1, Cursor: scheduler.At(1)}, // a new log: the mark restarts
	} {
		w.Acknowledged(0, m)
	}
	for _, tc := range []struct {
		call           faults.Call
		reached, fires bool
	}{
		{push(2, 0, at(1, "/a")), false, false}, // the mark is written after this push
		{push(3, 0, at(4, "/a")), true, false},  // past the mark
		{push(5, 0, at(3, "/a")), true, true},   // inside rev 3, at or before {3,null}
		{push(6, 1, at(2, "/a")), false, false}, // the epoch-1 mark is not in force yet; epoch 0's is another log
		{push(7, 1, at(2, "/a")), true, false},
		{push(8, 1, at(1, "/a")), true, true},
	} {
		reached, detail := w.Note(0, "b0", tc.call)
		if reached != tc.reached || (detail != "") != tc.fires {
			t.Errorf("push #%d epoch %d first %s: expected reached %t and a violation %t, got %t, %q",
				tc.call.Seq, tc.call.LogEpoch, tc.call.FirstChange, tc.reached, tc.fires, reached, detail)
		}
		if tc.fires && !strings.Contains(detail, "push #"+strconv.Itoa(tc.call.Seq)+" to b0 re-sent "+tc.call.FirstChange.String()) {
			t.Errorf("detail does not name the push: %q", detail)
		}
	}
	// A push without changes, or before Init, is never judged.
	var cold ResendWatch
	cold.Acknowledged(0, PushMark{Seq: 1, Cursor: scheduler.At(9)})
	if reached, detail := cold.Note(0, "b0", push(5, 0, at(1, "/a"))); reached || detail != "" {
		t.Errorf("an uninitialised watch judged a push: %t %q", reached, detail)
	}
	empty := push(9, 1, at(1, "/a"))
	empty.Changes = 0
	if reached, detail := w.Note(0, "b0", empty); reached || detail != "" {
		t.Errorf("a push without changes was judged: %t %q", reached, detail)
	}
}
