package oracle

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/faults"
)

func TestFifoLedgerSeesAnOverlap(t *testing.T) {
	var l FIFOLedger
	calls := []faults.StoreCall{
		{Seq: 1, Actor: "A", Op: faults.StoreOpGet, Backend: "b0"},
		{Seq: 2, Actor: "B", Op: faults.StoreOpGet, Backend: "b0"},
		{Seq: 3, Actor: "B", Op: faults.StoreOpClear, Backend: "b0"},
		{Seq: 4, Actor: "A", Op: faults.StoreOpSchedule, Backend: "b0"},
	}
	var got string
	for _, c := range calls {
		if d, overlapped := l.Note(c); overlapped {
			got = d
		}
	}
	if !strings.Contains(got, "A read b0's intent at store call #1, then B wrote it at #3") {
		t.Fatalf("overlap not reported as expected: %q", got)
	}
	l.Reset()
	for _, c := range []faults.StoreCall{ // the same sections, serialized
		{Seq: 1, Actor: "A", Op: faults.StoreOpGet, Backend: "b0"},
		{Seq: 2, Actor: "A", Op: faults.StoreOpSchedule, Backend: "b0"},
		{Seq: 3, Actor: "B", Op: faults.StoreOpGet, Backend: "b0"},
		{Seq: 4, Actor: "B", Op: faults.StoreOpClear, Backend: "b0"},
	} {
		if d, overlapped := l.Note(c); overlapped {
			t.Fatalf("serialized sections reported as overlapping: %s", d)
		}
	}
}

func TestSyncSpansSeeAnOverlap(t *testing.T) {
	var s SyncSpans
	overlap := func(calls []faults.Call) string {
		s.Reset()
		for i, c := range calls {
			c.Seq = i + 1
			if d, ok := s.Note(0, "b0", c); ok {
				return d
			}
		}
		return ""
	}
	fetch := func(actor string, stream int) faults.Call {
		return faults.Call{Actor: actor, Op: faults.OpFetch, Stream: stream}
	}
	next := func(actor string, stream int, err string) faults.Call {
		return faults.Call{Actor: actor, Op: faults.OpStreamNext, Stream: stream, Err: err}
	}
	closeS := func(actor string, stream int) faults.Call {
		return faults.Call{Actor: actor, Op: faults.OpStreamClose, Stream: stream}
	}
	pushBy := func(actor string) faults.Call { return faults.Call{Actor: actor, Op: faults.OpPush} }

	if d := overlap([]faults.Call{fetch("A", 1), next("A", 1, ""), pushBy("B"), closeS("A", 1)}); !strings.Contains(d, "B's push #3 on b0 landed inside A's change stream 1 (fetch #1") {
		t.Errorf("push inside another actor's stream: %q", d)
	}
	if d := overlap([]faults.Call{fetch("A", 1), fetch("B", 2)}); !strings.Contains(d, "B's fetch #2") {
		t.Errorf("fetch inside another actor's stream: %q", d)
	}
	for name, calls := range map[string][]faults.Call{
		"serialized":                {fetch("A", 1), next("A", 1, ""), closeS("A", 1), pushBy("B"), fetch("B", 2)},
		"own push inside own pull":  {fetch("A", 1), pushBy("A"), closeS("A", 1)},
		"a failed read ends it":     {fetch("A", 1), next("A", 1, "broken"), fetch("B", 2)},
		"a failed fetch opens none": {{Actor: "A", Op: faults.OpFetch, Stream: 1, Err: "refused"}, pushBy("B")},
	} {
		if d := overlap(calls); d != "" {
			t.Errorf("%s: reported an overlap: %s", name, d)
		}
	}
}
