package oracle

import (
	"errors"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// An exec's command runs once, exactly once when the exec returns a
// result, and the result carries its exit code; a cancelled exec is
// property cancel's; a property left out is not reported.
func TestDispatchChecker(t *testing.T) {
	ran := func(codes ...int) []faults.Execution {
		var out []faults.Execution
		for i, c := range codes {
			out = append(out, faults.Execution{Seq: i + 1, Command: "write 1", Process: "p" + string(rune('1'+i)), ExitCode: c})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		op   history.Op
		want string
	}{
		{"ran once, code reported", history.Op{Kind: "exec", Commands: ran(3), Exec: workspace.ExecResult{ExitCode: 3}}, ""},
		{"ran twice", history.Op{Kind: "exec", Commands: ran(0, 0)}, "dispatch-once"},
		{"ran twice, threw", history.Op{Kind: "exec", Commands: ran(0, 0), Err: errors.New("x")}, "dispatch-once"},
		{"never ran, threw", history.Op{Kind: "exec", Err: errors.New("x")}, ""},
		{"never ran, returned", history.Op{Kind: "exec"}, "dispatch-once"},
		{"wrong exit code", history.Op{Kind: "exec", Commands: ran(2), Exec: workspace.ExecResult{ExitCode: 0}}, "exit-code"},
		{"cancelled", history.Op{Kind: "exec", Cancelled: true}, ""},
		{"a retry", history.Op{Kind: "retry"}, ""},
	} {
		var rep recorder
		c := Lookup("dispatch-once").New(func(string) bool { return true })
		c.Begin(history.Setup{}, nil)
		op := tc.op
		c.Observe(&history.Event{Kind: history.OpReturned, Actor: "#1.exec.b0", Op: &op}, &rep)
		got := ""
		if len(rep.violations) > 0 {
			got, _, _ = strings.Cut(rep.violations[0], ":")
		}
		if got != tc.want {
			t.Errorf("%s: expected %q, got %q (%v)", tc.name, tc.want, got, rep.violations)
		}
	}
	var rep recorder
	c := Lookup("dispatch-once").New(func(p string) bool { return p == "exit-code" })
	c.Observe(&history.Event{Kind: history.OpReturned, Actor: "#1.exec.b0", Op: &history.Op{Kind: "exec", Commands: ran(0, 0)}}, &rep)
	if len(rep.violations) > 0 {
		t.Fatalf("dispatch-once left out, yet reported: %v", rep.violations)
	}
}
