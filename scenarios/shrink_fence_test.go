package scenarios

import (
	"testing"

	"github.com/syncsim/syncsim/sim"
)

// A plant's stale or missing runtime is a simplification target: the
// shrinker offers the same plant on the container's current runtime, so a
// shrunk file names a fence only when the failure needs it.
func TestSimplerOpsOfferCurrentFence(t *testing.T) {
	for _, f := range []sim.Fence{sim.FenceStale, sim.FenceNone} {
		op := Op{Kind: OpPlant, Backend: 0, Attempt: 3, Fence: f}
		found := false
		for _, c := range simplerOps(op) {
			if c.Fence == sim.FenceCurrent && c.Attempt == op.Attempt && c.Target == op.Target {
				found = true
			}
		}
		if !found {
			t.Errorf("simplerOps(%s) offers no plant on the current runtime", op)
		}
	}
	for _, c := range simplerOps(Op{Kind: OpPlant, Attempt: 3}) {
		if c.Fence != sim.FenceCurrent {
			t.Errorf("simplerOps of a current-runtime plant offers %s", c)
		}
	}
}
