package sim

import (
	"testing"

	"github.com/syncsim/syncsim/workspace"
)

// TestExplicitPullIsJudged runs explicit pulls through a host: one that
// finds nothing, one after a command, each judged complete with no error.
func TestExplicitPullIsJudged(t *testing.T) {
	h := newJudgeHost(t, nil)
	defer h.Close()
	h.SpawnPull(0)
	if v := h.Step(); v != nil {
		t.Fatal(v)
	}
	h.SpawnExec(0, workspace.SyncDefer, 2)
	if v := h.Step(); v != nil {
		t.Fatal(v)
	}
	h.SpawnPull(0)
	if v := h.Step(); v != nil {
		t.Fatal(v)
	}
	if n := h.stats.ExecSync["pull/complete"]; n != 2 {
		t.Fatalf("expected 2 pulls judged complete, got %d (%v)", n, h.stats.ExecSync)
	}
}
