package sim

import (
	"fmt"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
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
	apply := func(from, to, pos int) appliedRec {
		return appliedRec{actor: actor, backend: "b0", pos: pos, n: to - from, entries: to - from, first: entry(from), last: entry(to - 1)}
	}
	last := func(r record) int { return len(r.calls) }
	r257, r257err, r600 := rec(257, "eof"), rec(257, "error"), rec(600, "eof")
	r3 := rec(3, "eof")
	for _, tc := range []struct {
		name    string
		r       record
		applies []appliedRec
		batch   int
		ok      bool
	}{
		{"a batch, then the rest after the end", r257, []appliedRec{apply(0, 256, r257.at[255]), apply(256, 257, last(r257))}, 256, true},
		{"S10: 256, 256, 88", r600, []appliedRec{apply(0, 256, r600.at[255]), apply(256, 512, r600.at[511]), apply(512, 600, last(r600))}, 256, true},
		{"R4: the batch before the failure only", r257err, []appliedRec{apply(0, 256, r257err.at[255])}, 256, true},
		{"a short pull after its end", r3, []appliedRec{apply(0, 3, last(r3))}, 256, true},
		{"by 255s", r257, []appliedRec{apply(0, 255, r257.at[254]), apply(255, 257, last(r257))}, 256, false},
		{"one entry read too many", r257, []appliedRec{apply(0, 257, last(r257))}, 256, false},
		{"a partial batch after the failure", r257err, []appliedRec{apply(0, 256, r257err.at[255]), apply(256, 257, last(r257err))}, 256, false},
		{"the rest before the end", r3, []appliedRec{apply(0, 3, r3.at[2])}, 256, false},
		{"an apply with nothing new served", r257, []appliedRec{apply(0, 256, r257.at[255]), apply(256, 257, last(r257)), apply(256, 257, last(r257))}, 256, false},
		{"not the entries served", r257, []appliedRec{apply(1, 257, r257.at[255])}, 256, false},
		{"pullBatch: one entry at a time", r3, []appliedRec{apply(0, 1, r3.at[0]), apply(1, 2, r3.at[1]), apply(2, 3, r3.at[2])}, 1, true},
		{"pullBatch: two at once", r3, []appliedRec{apply(0, 2, r3.at[1]), apply(2, 3, r3.at[2])}, 1, false},
		{"another actor's applies", r3, []appliedRec{{actor: "#2.pull.b0", backend: "b0", pos: 2, entries: 5}}, 256, true},
		{"host writes are not judged", r3, []appliedRec{apply(0, 2, r3.at[1])}, applyBatchOf("write"), true},
	} {
		h, err := NewHost(Config{Seed: 1, Backends: 1, Profile: faults.Profile{}})
		if err != nil {
			t.Fatal(err)
		}
		h.applies = tc.applies
		v := h.judgeApplyBatches(actor, 0, tc.r.calls, tc.batch)
		if (v == nil) != tc.ok {
			t.Errorf("%s: expected ok %t, got %v", tc.name, tc.ok, v)
		}
		if v != nil && v.Property != "apply-batch" {
			t.Errorf("%s: expected property apply-batch, got %s", tc.name, v.Property)
		}
		h.Close()
	}
	if applyBatchOf("retry") != 1 || applyBatchOf("pull") != pullApplyBatch || applyBatchOf("exec") != pullApplyBatch {
		t.Errorf("batch sizes: retry %d, pull %d, exec %d", applyBatchOf("retry"), applyBatchOf("pull"), applyBatchOf("exec"))
	}
}
