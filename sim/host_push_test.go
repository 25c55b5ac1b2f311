package sim

import (
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/workspace"
)

// Zero fields take SPEC 6.5's PUSH_BATCH, as workspace.New does.
func TestDefaultPushBudget(t *testing.T) {
	h := newJudgeHost(t, nil)
	if got := h.pushBudget(); got != workspace.DefaultPushBudget {
		t.Fatalf("default push budget %+v, want %+v", got, workspace.DefaultPushBudget)
	}
}

func TestExpectedPushCount(t *testing.T) {
	const me = "tail.b0"
	push := func(actor string, n int, err string) faults.Call {
		return faults.Call{Actor: actor, Op: faults.OpPush, Changes: n, Err: err}
	}
	for _, tc := range []struct {
		name  string
		calls []faults.Call
		want  int
	}{
		{"batches sum", []faults.Call{push(me, 2, ""), push(me, 2, ""), push(me, 0, "")}, 4},
		{"another actor's pushes do not count", []faults.Call{push("x", 5, ""), push(me, 1, "")}, 1},
		{"a failure restarts the count (the replay resends)", []faults.Call{push(me, 2, ""), push(me, 2, "post-dispatch"), {Actor: me, Op: faults.OpConnect, Conn: 2}, push(me, 2, ""), push(me, 1, "")}, 3},
		{"calls after the last push are not the push's", []faults.Call{push(me, 2, ""), {Actor: me, Op: faults.OpFetch, Err: "refused"}}, 2},
		{"no push", []faults.Call{{Actor: me, Op: faults.OpFetch}}, 0},
	} {
		if got := expectedPushCount(tc.calls, me); got != tc.want {
			t.Errorf("%s: expected count %d, want %d", tc.name, got, tc.want)
		}
	}
}
