package sim

import (
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// TestPushResendRule drives a host through a push the remote acknowledged
// and the host recorded, then moves the push cursor back to the baseline
// behind the workspace's back (through the host's check, so the store
// model follows and only the waste shows) and runs another exec, whose pre-exec push then re-sends
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
				b := h.backends.names[0]
				// Through the host's check: the store model follows.
				if err := (localStoreCheck{inner: h.stores.store, h: h}).WritePushCursor(b, scheduler.Cursor{}); err != nil {
					t.Fatal(err)
				}
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
