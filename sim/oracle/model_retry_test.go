package oracle

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// TestPulledRule: a retry the model says must pull and that made no
// runtime call, or that reports the pre-check's text after a pull, is a
// violation (a pre-check with >= instead of >, SPEC 4); one that pulled,
// or one the model says must not, is not.
func TestPulledRule(t *testing.T) {
	exhausted := model.RetryResult{Status: "exhausted", Pulled: true, Attempt: 5}
	for _, tc := range []struct {
		name  string
		want  model.RetryResult
		got   string // the result's error
		calls []faults.Call
		fires bool
	}{
		{"pre-check text after a pull", exhausted, preCheckText, nil, true},
		{"no runtime call", model.RetryResult{Status: "complete", Pulled: true}, "", nil, true},
		{"only a local-store fault", model.RetryResult{Status: "pending", Pulled: true}, "x",
			[]faults.Call{{Op: faults.OpLocalStore, Err: "x"}}, true},
		{"pulled, failed", exhausted, "rpc error", []faults.Call{{Op: faults.OpSync, Conn: 1}, {Op: faults.OpFetch, Conn: 1, Err: "rpc error"}}, false},
		{"pre-check predicted", model.RetryResult{Status: "exhausted", Attempt: 6}, preCheckText, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, e := retryJudged(tc.calls, workspace.RetryResult{Status: workspace.RetryExhausted, Error: tc.got})
			got := m.verdict(t, m.judgePulled(e, tc.want))
			if fired := got != ""; fired != tc.fires {
				t.Fatalf("expected model to fire: %v, got %v", tc.fires, m.reports.violations)
			}
			if got != "" && got != "model" {
				t.Fatalf("expected property model, got %s", got)
			}
		})
	}
}

// TestLostFormRule: a lost retry whose first failure was a transport
// failure must name it (SPEC 5.2 step 1); a lost retry on its first pass
// need not.
func TestLostFormRule(t *testing.T) {
	lost := model.RetryResult{Status: "lost", Pulled: true}
	fence := `Execution "post-command sync" was lost when its container runtime was replaced.`
	transport := []faults.Call{{Op: faults.OpFetch, Conn: 1, Err: "x", Transport: true}, {Op: faults.OpConnect, Conn: 2}, {Op: faults.OpRuntimeID, Conn: 2}}
	for _, tc := range []struct {
		name  string
		msg   string
		calls []faults.Call
		fires bool
	}{
		{"second pass, first failure dropped", fence, transport, true},
		{"second pass, combined", fence + lostCombined + "x", transport, false},
		{"first pass", fence, []faults.Call{{Op: faults.OpRuntimeID, Conn: 1}}, false},
		{"non-transport failure first", fence, []faults.Call{{Op: faults.OpFetch, Conn: 1, Err: "rpc"}}, false},
		{"cut at 512 units before the suffix", fence + strings.Repeat("x", maxSafeUnits-len(fence)), transport, false},
		{"511 units, not cut", fence + strings.Repeat("x", maxSafeUnits-2-len(fence)), transport, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, e := retryJudged(tc.calls, workspace.RetryResult{Status: workspace.RetryLost, Error: tc.msg})
			got := m.verdict(t, m.judgeLostForm(e, lost))
			if fired := got != ""; fired != tc.fires {
				t.Fatalf("expected lost-message to fire: %v, got %v", tc.fires, m.reports.violations)
			}
			if got != "" && got != "lost-message" {
				t.Fatalf("expected property lost-message, got %s", got)
			}
		})
	}
}

// retryJudged is a model harness and a finished retry on b0 with result
// got, whose record is calls.
func retryJudged(calls []faults.Call, got workspace.RetryResult) (*modelHarness, *history.Event) {
	const actor = "#1.retry.b0"
	e := opEvent(actor, "retry", ownCalls(actor, calls...))
	e.Op.Retry = got
	return newModelHarness("b0"), e
}
