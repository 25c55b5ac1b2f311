package sim

import (
	"testing"

	"github.com/syncsim/syncsim/workspace"
)

// Zero fields take SPEC 6.5's PUSH_BATCH, as workspace.New does.
func TestDefaultPushBudget(t *testing.T) {
	h := newJudgeHost(t, nil)
	if got := h.pushBudget(); got != workspace.DefaultPushBudget {
		t.Fatalf("default push budget %+v, want %+v", got, workspace.DefaultPushBudget)
	}
}
