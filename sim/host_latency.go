package sim

import (
	"math/rand/v2"
	"strings"
	"time"
)

// Read latency. Virtual time otherwise moves inside a group only when a
// tick runs, so a batch whose budget sets a wall time would meet it only
// where a tick lands between two reads of its stream, which is rare: a
// batch that ignored its wall budget would pass nearly every seed. In a
// run whose retry budget sets a wall time, reading a change stream
// therefore takes virtual time, as a remote read does: before each read,
// the clock moves on by a latency drawn per actor (none, a third, a half
// or all of the budget), and timers due in that span fire as new actors,
// as at a tick. The judge bounds elapsed times by the times the runtime
// recorded (oracle.BatchBudgetChecker), so it needs no model of the latency.
// The fault-free liveness tail reads without latency: a tail retry must
// converge, and one entry per batch would need a tail round per entry.

// streamReadSuffix ends the blocking point of a change-stream read.
const streamReadSuffix = ".stream-next"

// readLatency draws the time one stream read takes.
type readLatency struct {
	limit time.Duration // the run's wall-time budget
	r     *rand.Rand    // per actor (actorRand)
	on    bool          // off in the liveness tail
}

// newReadLatency is the latency of a run whose wall-time budget is limit;
// nil when it sets none.
func (h *Host) newReadLatency(limit time.Duration) *readLatency {
	if limit <= 0 {
		return nil
	}
	return &readLatency{limit: limit, r: h.actorRand("read-latency"), on: true}
}

// draw is one read's latency.
func (l *readLatency) draw() time.Duration {
	third := (l.limit + 2) / 3 // rounded up: never zero for a positive budget
	return [...]time.Duration{0, third, (l.limit + 1) / 2, l.limit}[l.r.IntN(4)]
}

// beforeBlock runs at every blocking point of the runtime's calls, before
// the actor yields: a stream read moves the clock on by its latency.
func (h *Host) beforeBlock(point string) {
	if l := h.latency; l != nil && l.on && h.rt.current != nil && strings.HasSuffix(point, streamReadSuffix) {
		if d := l.draw(); d > 0 {
			h.clock.AdvanceTo(h.clock.Now().Add(d))
		}
	}
}
