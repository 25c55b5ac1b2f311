package sim

import (
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// TestPullOutcomeHandles pins how a pull's record reads when the actor made
// few or no remote calls: only holding a handle (a connect, its runtime id,
// its sync channel or a call on it) can make a pull anything but failed.
func TestPullOutcomeHandles(t *testing.T) {
	rt := "b0-rt1"
	on := func(op faults.Op) faults.Call {
		return faults.Call{Op: op, Conn: 1, RuntimeID: rt, HasRuntimeID: true}
	}
	refused := faults.Call{Op: faults.OpConnect, Err: "connection refused"}
	fetch := on(faults.OpFetch)
	fetch.CurrentCursor = scheduler.At(3)
	failedFetch := on(faults.OpFetch)
	failedFetch.Err = "injected rpc-error"
	lostFetch := failedFetch
	lostFetch.Lost = true
	cases := []struct {
		name  string
		calls []faults.Call
		fence *string
		want  model.PullKind
	}{
		{"no call: shared connects that failed", nil, nil, model.PullFailed},
		{"only the command's event-close", []faults.Call{on(faults.OpEventClose)}, &rt, model.PullFailed},
		{"own connects refused", []faults.Call{refused, refused}, nil, model.PullFailed},
		{"sync channel only: cursor already at the target", []faults.Call{on(faults.OpSync)}, nil, model.PullComplete},
		{"refused, then a handle with nothing to fetch", []faults.Call{refused, on(faults.OpSync)}, nil, model.PullComplete},
		{"fenced handle, fetched", []faults.Call{on(faults.OpRuntimeID), on(faults.OpSync), fetch}, &rt, model.PullComplete},
		{"fence mismatch stands over the sync take", []faults.Call{on(faults.OpRuntimeID), on(faults.OpSync)}, scheduler.Ptr("b0-rt2"), model.PullLost},
		{"the runtime raised EEXEC_LOST itself", []faults.Call{on(faults.OpRuntimeID), on(faults.OpSync), lostFetch}, &rt, model.PullLost},
		{"an ordinary fetch failure", []faults.Call{on(faults.OpSync), failedFetch}, nil, model.PullFailed},
	}
	for _, c := range cases {
		if got := pullOutcome(c.calls, c.fence, workspace.DefaultBudget, wallBudget{}).Kind; got != c.want {
			t.Errorf("%s: pull %s, want %s", c.name, got, c.want)
		}
	}
}
