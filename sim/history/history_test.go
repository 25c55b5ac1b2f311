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
