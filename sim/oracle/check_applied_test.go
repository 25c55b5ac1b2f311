package oracle

import (
	"fmt"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// TestApplyBatchRule holds apply-batch to SPEC 6.3 step 7 and 6.4 on
// hand-made records: the entries a stream served, where it ended, and
// where each apply came.
func TestApplyBatchRule(t *testing.T) {
	const actor = "#1.exec.b0"
	entry := func(i int) scheduler.Cursor { return scheduler.AtPath(2, fmt.Sprintf("/f%04d", i)) }
	// rec builds a record: a fetch, then n entries (and the stream's end
	// when eof), returning the calls and the Seq of every entry's call.
	type record struct {
		calls []faults.Call
		at    []int // at[i]: Seq of the call that served entry i
	}
	rec := func(n int, end string) record {
		r := record{calls: []faults.Call{{Seq: 1, Actor: actor, Op: faults.OpFetch, Stream: 1}}}
		for i := range n {
			e := entry(i)
			seq := len(r.calls) + 1
			r.calls = append(r.calls, faults.Call{Seq: seq, Actor: actor, Op: faults.OpStreamNext, Stream: 1, Entry: &e, Entries: i + 1})
			r.at = append(r.at, seq)
		}
		switch end {
		case "eof":
			r.calls = append(r.calls, faults.Call{Seq: len(r.calls) + 1, Actor: actor, Op: faults.OpStreamNext, Stream: 1, EOF: true, Entries: n})
		case "error":
			r.calls = append(r.calls, faults.Call{Seq: len(r.calls) + 1, Actor: actor, Op: faults.OpStreamNext, Stream: 1, Err: "socket hang up"})
		}
		return r
	}
	// apply covers entries [from, to) and comes once the record reached pos.
	apply := func(from, to, pos int) appliedAt {
		return appliedAt{actor: actor, backend: "b0", pos: pos, n: to - from, entries: to - from, first: entry(from), last: entry(to - 1)}
	}
	last := func(r record) int { return len(r.calls) }
	r257, r257err, r600 := rec(257, "eof"), rec(257, "error"), rec(600, "eof")
	r3 := rec(3, "eof")
	for _, tc := range []struct {
		name    string
		r       record
		applies []appliedAt
		batch   int
		ok      bool
	}{
		{"a batch, then the rest after the end", r257, []appliedAt{apply(0, 256, r257.at[255]), apply(256, 257, last(r257))}, 256, true},
		{"S10: 256, 256, 88", r600, []appliedAt{apply(0, 256, r600.at[255]), apply(256, 512, r600.at[511]), apply(512, 600, last(r600))}, 256, true},
		{"R4: the batch before the failure only", r257err, []appliedAt{apply(0, 256, r257err.at[255])}, 256, true},
		{"a short pull after its end", r3, []appliedAt{apply(0, 3, last(r3))}, 256, true},
		{"by 255s", r257, []appliedAt{apply(0, 255, r257.at[254]), apply(255, 257, last(r257))}, 256, false},
		{"one entry read too many", r257, []appliedAt{apply(0, 257, last(r257))}, 256, false},
		{"a partial batch after the failure", r257err, []appliedAt{apply(0, 256, r257err.at[255]), apply(256, 257, last(r257err))}, 256, false},
		{"the rest before the end", r3, []appliedAt{apply(0, 3, r3.at[2])}, 256, false},
		{"an apply with nothing new served", r257, []appliedAt{apply(0, 256, r257.at[255]), apply(256, 257, last(r257)), apply(256, 257, last(r257))}, 256, false},
		{"not the entries served", r257, []appliedAt{apply(1, 257, r257.at[255])}, 256, false},
		{"pullBatch: one entry at a time", r3, []appliedAt{apply(0, 1, r3.at[0]), apply(1, 2, r3.at[1]), apply(2, 3, r3.at[2])}, 1, true},
		{"pullBatch: two at once", r3, []appliedAt{apply(0, 2, r3.at[1]), apply(2, 3, r3.at[2])}, 1, false},
		{"another actor's applies", r3, []appliedAt{{actor: "#2.pull.b0", backend: "b0", pos: 2, entries: 5}}, 256, true},
	} {
		var c AppliedChecker
		c.Begin(history.Setup{Backends: []string{"b0"}, SyncNone: -1}, nil)
		c.applies = tc.applies
		var rep recorder
		reported := c.applyBatches(&history.Event{Actor: actor, Backend: 0}, tc.r.calls, tc.batch, &rep)
		if reported == tc.ok || len(rep.violations) > 0 == tc.ok {
			t.Errorf("%s: expected ok %t, got %v", tc.name, tc.ok, rep.violations)
		}
	}
	if applyBatchOf("retry") != 1 || applyBatchOf("pull") != pullApplyBatch || applyBatchOf("exec") != pullApplyBatch || applyBatchOf("write") != 0 {
		t.Errorf("batch sizes: retry %d, pull %d, exec %d, write %d", applyBatchOf("retry"), applyBatchOf("pull"), applyBatchOf("exec"), applyBatchOf("write"))
	}
}

// A complete retry's Applied: within what was served, and exactly what its
// applies changed by the model (an entry whose content the path already
// holds changes nothing).
func TestAppliedChecker(t *testing.T) {
	const me, before = "#2.retry.b0", "#1.pull.b0"
	e1, e2 := scheduler.AtPath(3, "/w/a"), scheduler.AtPath(3, "/w/b")
	rec := records{{
		{Seq: 1, Actor: before, Op: faults.OpFetch, Stream: 1},
		{Seq: 2, Actor: before, Op: faults.OpStreamNext, Stream: 1, Entry: &e2},
		{Seq: 3, Actor: before, Op: faults.OpStreamNext, Stream: 1, EOF: true},
		{Seq: 4, Actor: me, Op: faults.OpFetch, Stream: 2},
		{Seq: 5, Actor: me, Op: faults.OpStreamNext, Stream: 2, Entry: &e1},
		{Seq: 6, Actor: me, Op: faults.OpStreamNext, Stream: 2, Entry: &e2},
		{Seq: 7, Actor: me, Op: faults.OpStreamNext, Stream: 2, EOF: true},
	}}
	apply := func(actor string, pos int, path string) history.Event {
		return history.Event{Kind: history.LocalCall, Actor: actor, Local: &history.Local{Op: "apply-upstream", Store: "b0", Pos: pos,
			Changes: []workspace.Change{{Rev: 3, Path: path, Content: []byte(path)}}, N: 1}}
	}
	events := func(applied int) []history.Event {
		return []history.Event{
			{Kind: history.Drained, Marks: []int{3}, Epochs: []int{0}},
			apply(before, 3, "/w/b"),
			{Kind: history.StepEnd},
			{Kind: history.Drained, Marks: []int{7}, Epochs: []int{0}},
			// /w/b already holds what the retry is served again: its apply
			// changes nothing.
			apply(me, 5, "/w/a"), apply(me, 7, "/w/b"),
			{Kind: history.OpReturned, Actor: me, Backend: 0, Op: &history.Op{Kind: "retry", Calls: rec[0][3:],
				Retry: workspace.RetryResult{Status: workspace.RetryComplete, Applied: applied}}},
		}
	}
	setup := history.Setup{Backends: []string{"b0"}, SyncNone: -1}
	run := func(applied int, want string) {
		t.Helper()
		var c AppliedChecker
		c.Begin(setup, rec)
		var rep recorder
		for _, e := range events(applied) {
			c.Observe(&e, &rep)
		}
		switch {
		case want == "" && len(rep.violations) > 0:
			t.Fatalf("applied %d: expected nothing, got %v", applied, rep.violations)
		case want != "" && (len(rep.violations) == 0 || rep.violations[0] != want):
			t.Fatalf("applied %d: expected %q, got %v", applied, want, rep.violations)
		}
	}
	run(1, "")
	run(2, "applied: #2.retry.b0: expected applied=1 (what its last pass's applies changed in the local store, SPEC 6.7), got 2")
	run(3, "applied: #2.retry.b0: expected applied <= 2 (the entries served to it), got 3")
	run(0, "applied: #2.retry.b0: applied=0, but its last stream served 1 entries never seen before, each new content")
}
