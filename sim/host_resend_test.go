package sim

import (
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// TestPushResendRule drives a host through a push the remote acknowledged
// and the host recorded, then moves the push cursor back to the baseline
// behind the workspace's back (store and store model alike, so only the
// waste shows) and runs another exec, whose pre-exec push then re-sends
// the acknowledged write along with a new one: push-resend. The same reset
// after the remote lost its log is the SPEC's re-baseline, and without a
// reset the push sends the new write alone.
func TestPushResendRule(t *testing.T) {
	for _, tc := range []struct {
		name     string
		reset    bool
		truncate bool
		want     string
	}{
		{"reset without cause", true, false, "push-resend"},
		{"no reset", false, false, ""},
		{"reset after the log was emptied", true, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newJudgeHost(t, nil)
			defer h.Close()
			step := func() *Violation {
				t.Helper()
				return h.Step()
			}
			h.SpawnWrite(0)
			if v := step(); v != nil {
				t.Fatal(v)
			}
			h.SpawnExec(0, workspace.SyncWait, 0)
			if v := step(); v != nil {
				t.Fatal(v)
			}
			if tc.truncate {
				h.Truncate(0)
			}
			if tc.reset {
				b := h.names[0]
				if err := h.store.WritePushCursor(b, scheduler.Cursor{}); err != nil {
					t.Fatal(err)
				}
				h.localModel.WritePushCursor(b, scheduler.Cursor{})
			}
			h.SpawnWrite(0) // so that the next push has a change to send either way
			if v := step(); v != nil {
				t.Fatal(v)
			}
			h.SpawnExec(0, workspace.SyncWait, 0)
			v := step()
			switch {
			case tc.want == "" && v != nil:
				t.Fatalf("expected no violation, got %v", v)
			case tc.want != "" && (v == nil || v.Property != tc.want):
				t.Fatalf("expected %s, got %v", tc.want, v)
			}
			if tc.want == "" && h.stats.Faults["push-after-ack"] == 0 && !tc.truncate {
				t.Fatalf("the second push was never held to the mark: %v", h.stats.Faults)
			}
		})
	}
}

// TestCheckResendMarks feeds checkResend marks and pushes directly: a mark
// applies only to pushes after it in the record and on its log epoch, and
// the mark never goes back within an epoch.
func TestCheckResendMarks(t *testing.T) {
	h := newJudgeHost(t, nil)
	defer h.Close()
	at := func(rev int64, path string) scheduler.Cursor { return scheduler.AtPath(rev, path) }
	push := func(seq, epoch int, first scheduler.Cursor) faults.Call {
		return faults.Call{Seq: seq, Actor: "#9.exec.b0", Op: faults.OpPush, Changes: 1, FirstChange: first, LogEpoch: epoch}
	}
	h.resend.pending[0] = []pushMark{
		{seq: 2, epoch: 0, cursor: scheduler.At(3)},
		{seq: 4, epoch: 0, cursor: scheduler.At(1)}, // lower: the mark stays at 3
		{seq: 6, epoch: 1, cursor: scheduler.At(1)}, // a new log: the mark restarts
	}
	for _, tc := range []struct {
		call  faults.Call
		fires bool
	}{
		{push(2, 0, at(1, "/a")), false}, // the mark is written after this push
		{push(3, 0, at(4, "/a")), false}, // past the mark
		{push(5, 0, at(3, "/a")), true},  // inside rev 3, at or before {3,null}
		{push(6, 1, at(2, "/a")), false}, // the epoch-1 mark is not in force yet; epoch 0's is another log
		{push(7, 1, at(2, "/a")), false},
		{push(8, 1, at(1, "/a")), true},
	} {
		h.violated = nil
		h.checkResend(0, tc.call)
		if fired := h.violated != nil; fired != tc.fires {
			t.Errorf("push #%d epoch %d first %s: expected a violation %t, got %v", tc.call.Seq, tc.call.LogEpoch, tc.call.FirstChange, tc.fires, h.violated)
		}
	}
}
