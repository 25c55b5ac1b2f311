package oracle

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

func TestPushBudgetProperty(t *testing.T) {
	for _, tc := range []struct {
		name  string
		push  faults.Call
		wantV bool
	}{
		{"within the budget", faults.Call{Op: faults.OpPush, Changes: 2, PushBytes: 30}, false},
		{"one change past the entry budget", faults.Call{Op: faults.OpPush, Changes: 3, PushBytes: 30}, true},
		{"a lone change larger than the byte budget", faults.Call{Op: faults.OpPush, Changes: 1, PushBytes: 100}, false},
		{"two changes past the byte budget", faults.Call{Op: faults.OpPush, Changes: 2, PushBytes: 31}, true},
		{"a failed push is judged too", faults.Call{Op: faults.OpPush, Changes: 3, Err: "x"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c PushBudgetChecker
			c.Begin(history.Setup{Backends: []string{"b0"}, PushBatch: workspace.PushBudget{MaxEntries: 2, MaxBytes: 30}}, nil)
			tc.push.Seq, tc.push.Actor = 1, "#1.exec.b0"
			var rep recorder
			c.Observe(&history.Event{Kind: history.RuntimeCall, Runtime: &tc.push}, &rep)
			if got := len(rep.violations) > 0; got != tc.wantV {
				t.Fatalf("violation = %v (%v), want %v", got, rep.violations, tc.wantV)
			}
			if tc.wantV && !strings.HasPrefix(rep.violations[0], "push-budget: ") {
				t.Fatalf("property %s, want push-budget", rep.violations[0])
			}
		})
	}
}
