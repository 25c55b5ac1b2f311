package oracle

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
)

// DisposeOnceChecker is the checker of property dispose-once: SPEC 6.3 step 9
// (and 6.4's last step, R8, S9) — the fetch envelope is disposed exactly
// once on every exit path: a complete pull, a budget stop, a failed apply,
// the cross-side assertion, the divergence retry that closes its first
// envelope early before it fetches again. Read from the runtime's record,
// never from the workspace: every stream a fetch of the operation's own
// opened is closed by it, and only once, by the time the operation
// returns. A cancelled operation is held to it too (the close runs on
// every exit path); an operation a host restart cut never returns.
type DisposeOnceChecker struct {
	closes map[int]int // reused: closes per stream id
	opened []int
}

// Reads: finished operations.
func (c *DisposeOnceChecker) Reads() history.Kinds { return history.Of(history.OpReturned) }

// Begin starts a run.
func (c *DisposeOnceChecker) Begin(history.Setup, history.Records) {
	c.closes = map[int]int{}
}

// Observe reads one finished operation's own calls.
func (c *DisposeOnceChecker) Observe(e *history.Event, rep history.Reporter) {
	clear(c.closes)
	c.opened = c.opened[:0] // stream ids, in the order their fetches returned
	for i := range e.Op.Calls {
		call := &e.Op.Calls[i]
		switch {
		case call.Op == faults.OpFetch && call.Err == "" && call.Stream != 0:
			c.opened = append(c.opened, call.Stream)
		case call.Op == faults.OpStreamClose:
			c.closes[call.Stream]++
		}
	}
	for _, s := range c.opened {
		if n := c.closes[s]; n != 1 {
			rep.Violate("dispose-once", fmt.Sprintf("%s: the envelope of fetch stream %d was disposed %d times: expected exactly once on every exit path (SPEC 6.3 step 9)",
				e.Actor, s, n))
			return
		}
	}
	if len(c.opened) > 0 {
		rep.Reach("dispose-judged")
	}
}
