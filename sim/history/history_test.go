package history

import (
	"testing"

	"github.com/syncsim/syncsim/faults"
)

type countingJudge struct {
	reads Kinds
	began int
	seen  []Kind
}

func (j *countingJudge) Reads() Kinds         { return j.reads }
func (j *countingJudge) Begin(Setup, Records) { j.began++ }
func (j *countingJudge) Observe(e *Event, r Reporter) {
	j.seen = append(j.seen, e.Kind)
	r.Reach(e.Kind.String())
}

type reach []string

func (r *reach) Violate(string, string) {}
func (r *reach) Reach(what string)      { *r = append(*r, what) }

// Append records every event and hands the judge only the kinds it reads.
func TestAppendRecordsAllAndJudgesWhatIsRead(t *testing.T) {
	var h History
	j := &countingJudge{reads: Of(StepEnd, RuntimeCall)}
	var r reach
	h.Reset(Setup{Backends: []string{"b0"}}, nil, j, &r)
	call := faults.Call{Seq: 1, Op: faults.OpConnect}
	h.Append(Event{Kind: HostStart, Start: 1})
	h.Append(Event{Kind: RuntimeCall, Runtime: &call})
	h.Append(Event{Kind: GateWait})
	h.Append(Event{Kind: StepEnd})
	if len(h.Events()) != 4 {
		t.Fatalf("expected 4 events recorded, got %d", len(h.Events()))
	}
	if j.began != 1 || len(j.seen) != 2 || j.seen[0] != RuntimeCall || j.seen[1] != StepEnd {
		t.Fatalf("expected the judge begun once and given runtime-call, step-end; got %d, %v", j.began, j.seen)
	}
	if !h.Reads(StepEnd) || h.Reads(GateWait) {
		t.Fatal("Reads disagrees with the judge")
	}
	h.Release()
	h.Reset(Setup{}, nil, nil, nil)
	if len(h.Events()) != 0 {
		t.Fatalf("a reset history holds %d events", len(h.Events()))
	}
	h.Append(Event{Kind: StepEnd}) // no judge: recorded, judged by nobody
	if len(h.Events()) != 1 || len(j.seen) != 2 {
		t.Fatal("expected the event recorded and the old judge not called")
	}
}

func TestKindsString(t *testing.T) {
	if got := Of(OpReturned, HostStart).String(); got != "host-start, op-returned" {
		t.Fatalf("got %q", got)
	}
	if Of().String() != "" || Of(LocalCall).Has(StepEnd) {
		t.Fatal("empty set misbehaves")
	}
}

// A history longer than a chunk keeps every event in order and in place:
// At, Backward and Events agree, the pointer a judge was given still reads
// its event after thousands more, and a Reset forgets them all.
func TestHistoryAcrossChunks(t *testing.T) {
	var h History
	var first *Event
	j := &keepingJudge{keep: func(e *Event) {
		if first == nil {
			first = e
		}
	}}
	h.Reset(Setup{}, nil, j, &reach{})
	const n = 3*eventChunkLen + 17
	for i := range n {
		h.Append(Event{Kind: StepEnd, Start: i})
	}
	if h.Len() != n || first == nil || first.Start != 0 {
		t.Fatalf("Len %d (want %d); the first event judged reads %+v", h.Len(), n, first)
	}
	all := h.Events()
	if len(all) != n {
		t.Fatalf("Events holds %d, want %d", len(all), n)
	}
	for i, e := range all {
		if e.Start != i || h.At(i).Start != i {
			t.Fatalf("event %d: Events has %d, At has %d", i, e.Start, h.At(i).Start)
		}
	}
	want := n - 1
	for e := range h.Backward() {
		if e.Start != want {
			t.Fatalf("Backward yields %d, want %d", e.Start, want)
		}
		want--
	}
	if want != -1 {
		t.Fatalf("Backward stopped early, at %d", want)
	}
	h.Reset(Setup{}, nil, nil, nil)
	if h.Len() != 0 || len(h.Events()) != 0 {
		t.Fatalf("a reset history holds %d events", h.Len())
	}
	h.Append(Event{Kind: HostStart, Start: 7})
	if h.At(0).Start != 7 || h.Len() != 1 {
		t.Fatalf("after a reset, the first event reads %+v", h.At(0))
	}
	h.Release()
}

// keepingJudge reads every kind and hands each event to keep.
type keepingJudge struct{ keep func(*Event) }

func (j *keepingJudge) Reads() Kinds                 { return ^Kinds(0) }
func (j *keepingJudge) Begin(Setup, Records)         {}
func (j *keepingJudge) Observe(e *Event, _ Reporter) { j.keep(e) }
