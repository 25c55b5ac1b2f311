package oracle

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// The checker follows the store on its own model: two host writes are
// pending when the push reads the store, so its one batch must carry both
// up to the target; a batch of one breaks push-batch, and so does one
// that reaches past the target captured (a write that landed meanwhile):
// push-target.
func TestPushTargetChecker(t *testing.T) {
	const me = "#3.exec.b0"
	local := func(actor string, l history.Local) history.Event {
		l.Store = "b0"
		return history.Event{Kind: history.LocalCall, Actor: actor, Local: &l}
	}
	write := func(path string, rev int64) history.Event {
		return local("#1.write.b0", history.Local{Op: "write-file", Path: path, Content: []byte("x"), Rev: rev})
	}
	reads := []history.Event{
		write("/a", 1), write("/b", 2),
		local(me, history.Local{Op: "push-cursor"}),
		local(me, history.Local{Op: "current-rev", Rev: 2}),
		local(me, history.Local{Op: "local-changes"}),
		{Kind: history.PushEntered, Actor: me, Backend: 0},
	}
	for _, tc := range []struct {
		name string
		push faults.Call
		want string
	}{
		{"the whole batch", faults.Call{Changes: 2, Sender: scheduler.At(2)}, ""},
		{"one change short", faults.Call{Changes: 1, Sender: scheduler.AtPath(1, "/a")}, "push-batch: #3.exec.b0: push #7 to b0: expected 2 changes up to {2,null}"},
		{"past the target", faults.Call{Changes: 3, Sender: scheduler.At(3)}, "push-target: #3.exec.b0: push #7 to b0 sent up to {3,null}, past local revision 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c PushTargetChecker
			c.Begin(history.Setup{Backends: []string{"b0"}, PushBatch: workspace.PushBudget{MaxEntries: 4, MaxBytes: 100}}, nil)
			var rep recorder
			for i := range reads {
				e := reads[i]
				c.Observe(&e, &rep)
			}
			tc.push.Actor, tc.push.Op, tc.push.Seq = me, faults.OpPush, 7
			c.Observe(&history.Event{Kind: history.RuntimeCall, Actor: me, Backend: 0, Runtime: &tc.push}, &rep)
			switch {
			case tc.want == "" && len(rep.violations) > 0:
				t.Fatalf("expected nothing, got %v", rep.violations)
			case tc.want != "" && (len(rep.violations) == 0 || !strings.HasPrefix(rep.violations[0], tc.want)):
				t.Fatalf("expected %q, got %v", tc.want, rep.violations)
			}
		})
	}
}
