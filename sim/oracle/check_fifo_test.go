package oracle

import (
	"testing"

	"github.com/syncsim/syncsim/faults"
)

// TestRetrySpanRule: another actor's push or fetch between a retry's
// first and last call on the backend is an overlap (a push taken out of
// the FIFOChecker); one before or after the retry, or a call that runs outside
// the FIFOChecker (a spawn), is not.
func TestRetrySpanRule(t *testing.T) {
	const r, x = "#2.retry.b0", "#1.exec.b0"
	call := func(actor string, op faults.Op) faults.Call { return faults.Call{Actor: actor, Op: op} }
	retry := []faults.Call{call(r, faults.OpConnect), call(r, faults.OpWatermarks), call(r, faults.OpSync), call(r, faults.OpFetch), call(r, faults.OpStreamClose)}
	insert := func(at int, c faults.Call) []faults.Call {
		out := append([]faults.Call(nil), retry[:at]...)
		return append(append(out, c), retry[at:]...)
	}
	for _, tc := range []struct {
		name  string
		rec   []faults.Call
		fires bool
	}{
		{"push during the retry's reconcile", insert(2, call(x, faults.OpPush)), true},
		{"fetch during the retry's stream", insert(4, call(x, faults.OpFetch)), true},
		{"push before the retry", insert(0, call(x, faults.OpPush)), false},
		{"push after the retry", append(append([]faults.Call(nil), retry...), call(x, faults.OpPush)), false},
		{"a spawn inside", insert(2, call(x, faults.OpExec)), false},
		{"its own calls only", retry, false},
	} {
		i, _, _ := retrySpanOverlap(tc.rec, r)
		if fired := i >= 0; fired != tc.fires {
			t.Errorf("%s: expected an overlap %t, got index %d", tc.name, tc.fires, i)
		}
	}
}

// TestPostCommandSpan: an exec's post-command step starts after its last
// event read, its stream and handle closes aside, so a push of another
// actor between the command's events and the step's first call is outside
// it, and one inside the step's pull is an overlap.
func TestPostCommandSpan(t *testing.T) {
	const x, o = "#1.exec.b0", "#2.exec.b0"
	call := func(actor string, op faults.Op) faults.Call { return faults.Call{Actor: actor, Op: op} }
	exec := []faults.Call{call(x, faults.OpExec), call(x, faults.OpEventNext), call(x, faults.OpEventClose),
		call(o, faults.OpPush), call(x, faults.OpSync), call(x, faults.OpFetch), call(o, faults.OpPush), call(x, faults.OpStreamClose)}
	i, _, _ := retrySpanOverlap(postCommand(exec, x), x)
	if i < 0 {
		t.Fatalf("a push inside the post-command pull was not seen")
	}
	if got := postCommand(exec, x)[i]; got.Actor != o || got.Op != faults.OpPush {
		t.Fatalf("expected the second push, got %v", got)
	}
	clean := append(append([]faults.Call(nil), exec[:6]...), exec[7])
	if i, _, _ := retrySpanOverlap(postCommand(clean, x), x); i >= 0 {
		t.Fatalf("the push before the step's first call was taken for an overlap (index %d)", i)
	}
	if rec := postCommand(exec[:1], x); rec != nil {
		t.Fatalf("an exec that never streamed has no post-command step, got %v", rec)
	}
}

// TestPushRunSpan: between two pre-exec pushes of one pass, another actor's
// fetch or push is an overlap; one between two passes (a call of the exec's
// own between them) is not.
func TestPushRunSpan(t *testing.T) {
	const x, o = "#1.exec.b0", "#2.pull.b0"
	call := func(actor string, op faults.Op) faults.Call { return faults.Call{Actor: actor, Op: op} }
	for _, tc := range []struct {
		name  string
		rec   []faults.Call
		fires bool
	}{
		{"fetch between two batches", []faults.Call{call(x, faults.OpPush), call(o, faults.OpFetch), call(x, faults.OpPush)}, true},
		{"fetch between two passes", []faults.Call{call(x, faults.OpPush), call(x, faults.OpClose), call(o, faults.OpFetch), call(x, faults.OpConnect), call(x, faults.OpPush)}, false},
		{"fetch after the push", []faults.Call{call(x, faults.OpPush), call(x, faults.OpPush), call(o, faults.OpFetch), call(x, faults.OpExec)}, false},
		{"a connect of another between batches", []faults.Call{call(x, faults.OpPush), call(o, faults.OpConnect), call(x, faults.OpPush)}, false},
	} {
		i, _, _ := pushRunOverlap(tc.rec, x)
		if fired := i >= 0; fired != tc.fires {
			t.Errorf("%s: expected an overlap %t, got index %d", tc.name, tc.fires, i)
		}
	}
}

func TestActorBackend(t *testing.T) {
	for name, want := range map[string]string{
		"#12.exec.b3": "b3", "#7.alarm.b0": "b0", "#1.retry.b15": "b15",
		"#5.timer": "", "#3.tick": "", "-": "", "": "", "#2.exec.bx": "", "#2.exec.b": "",
	} {
		got, ok := actorBackend(name)
		if ok != (want != "") || got != want {
			t.Errorf("actorBackend(%q) = %q, %t; want %q", name, got, ok, want)
		}
	}
}
