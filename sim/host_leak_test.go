package sim

import (
	"context"
	"testing"

	"github.com/syncsim/syncsim/workspace"
)

// TestHandleLeakRule: a connection opened behind the workspace's back while
// its cached one is open is a second open connection (handle-leak); closed
// again, it is not; and a host restart forgets the old workspace's.
func TestHandleLeakRule(t *testing.T) {
	for _, tc := range []struct {
		name    string
		close   bool
		restart bool
		fires   bool
	}{
		{"left open", false, false, true},
		{"closed", true, false, false},
		{"left open, then the host restarted", false, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newJudgeHost(t, nil)
			defer h.Close()
			h.SpawnExec(0, workspace.SyncWait, 1) // the workspace connects and caches
			if v := h.Step(); v != nil {
				t.Fatal(v)
			}
			extra, err := h.backends.containers[0].Connect(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if tc.close {
				_ = extra.Close()
			}
			if tc.restart {
				if v := h.RestartHost(); v != nil {
					t.Fatal(v)
				}
			}
			h.drainRecords()
			v := h.Step()
			if fired := v != nil; fired != tc.fires {
				t.Fatalf("expected a violation %t, got %v", tc.fires, v)
			}
			if v != nil && v.Property != "handle-leak" {
				t.Fatalf("expected handle-leak, got %s", v.Property)
			}
		})
	}
}
