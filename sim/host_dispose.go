package sim

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
)

// Property dispose-once: SPEC 6.3 step 9 (and 6.4's last step, R8, S9) —
// the fetch envelope is disposed exactly once on every exit path: a
// complete pull, a budget stop, a failed apply, the cross-side assertion,
// the divergence retry that closes its first envelope early before it
// fetches again. Read from the runtime's record, never from the workspace:
// every stream a fetch of the operation's own opened is closed by it, and
// only once, by the time the operation returns. A cancelled operation is
// held to it too (judged before the cancel rules: the close runs on every
// exit path); an operation a host restart cut is never judged.

// judgeDisposals checks the streams of one finished operation's own calls.
func (h *Host) judgeDisposals(f finished, calls []faults.Call) *Violation {
	var opened []int // stream ids, in the order their fetches returned
	closes := map[int]int{}
	for _, c := range calls {
		switch {
		case c.Op == faults.OpFetch && c.Err == "" && c.Stream != 0:
			opened = append(opened, c.Stream)
		case c.Op == faults.OpStreamClose:
			closes[c.Stream]++
		}
	}
	for _, s := range opened {
		if n := closes[s]; n != 1 {
			return h.fail("dispose-once", fmt.Sprintf("%s: the envelope of fetch stream %d was disposed %d times: expected exactly once on every exit path (SPEC 6.3 step 9)",
				f.actor, s, n))
		}
	}
	if len(opened) > 0 {
		h.stats.Faults["dispose-judged"]++
	}
	return nil
}
