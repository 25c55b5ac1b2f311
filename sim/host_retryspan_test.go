package sim

import (
	"testing"

	"github.com/syncsim/syncsim/faults"
)

// TestRetrySpanRule: another actor's push or fetch between a retry's
// first and last call on the backend is an overlap (a push taken out of
// the FIFO); one before or after the retry, or a call that runs outside
// the FIFO (a spawn), is not.
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
