package oracle

import (
	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
)

// PushTargetChecker is the checker of properties push-target and
// push-batch (SPEC 6.5; the rules: PushTargetWatch). It follows the local
// store on its own model (what a correct store holds: the expectation is
// the SPEC's, whatever the store answers) and tells the watch, at each of
// an actor's reads of the store (LocalCall: current-rev, push-cursor,
// local-changes), what the model held; at each push's blocking point
// (PushEntered) the actor's latest reads become that batch's, and the
// runtime's record (RuntimeCall) pairs them with the push.
type PushTargetChecker struct {
	want   func(string) bool
	names  []string
	local  localFollower
	watch  PushTargetWatch
	budget PushBudget
}

// Reads: the local store's calls, the pushes' blocking points and the
// runtime's calls.
func (c *PushTargetChecker) Reads() history.Kinds {
	return history.Of(history.LocalCall, history.PushEntered, history.RuntimeCall)
}

// Begin starts a run.
func (c *PushTargetChecker) Begin(s history.Setup, _ history.Records) {
	c.names = s.Backends
	c.local.begin()
	c.budget = PushBudget{MaxEntries: s.PushBatch.MaxEntries, MaxBytes: s.PushBatch.MaxBytes}
	c.watch = PushTargetWatch{Budget: c.budget}
}

// Observe reads one event.
func (c *PushTargetChecker) Observe(e *history.Event, rep history.Reporter) {
	switch e.Kind {
	case history.LocalCall:
		c.local.follow(e.Local)
		if e.Backend >= 0 && e.Actor != "" { // not the probe's backend, nor outside any actor
			c.read(e.Backend, e.Actor, e.Local)
		}
	case history.PushEntered:
		c.watch.Entered(e.Backend, e.Actor)
	case history.RuntimeCall:
		moved := c.watch.Moved
		if property, detail := c.watch.Note(e.Backend, c.names[e.Backend], *e.Runtime); detail != "" && (c.want == nil || c.want(property)) {
			rep.Violate(property, detail)
		}
		if c.watch.Moved > moved {
			rep.Reach("push-target-moved")
		}
	}
}

// read tells the watch what an actor's read of backend b's local store
// found, by the model: the current revision, the push cursor, or the
// pending changes after the actor's latest cursor read up to its latest
// revision read.
func (c *PushTargetChecker) read(b int, actor string, l *history.Local) {
	m, w := c.local.model, &c.watch
	switch l.Op {
	case "current-rev":
		w.ReadRev(b, actor, m.CurrentRev(l.Store))
	case "push-cursor":
		w.ReadCursor(b, actor, m.PushCursor(l.Store))
	case "local-changes":
		read := w.Latest(b, actor)
		// The batch rule reads no further than the first change the byte
		// budget leaves out (it shows the batch stopped short of the
		// target): with a tiny budget a long run's push would otherwise
		// copy a whole entry budget of changes on every batch.
		var pending []PendingChange
		var bytes int64
		m.EachLocalChange(l.Store, read.Cursor, scheduler.At(read.Rev), func(ch model.LocalChange) bool {
			p := PendingChange{Cursor: scheduler.AtPath(ch.Rev, ch.Path)}
			if !ch.Deleted {
				p.Bytes = int64(len(ch.Content))
			}
			left := len(pending) > 0 && bytes+p.Bytes > c.budget.MaxBytes
			bytes += p.Bytes
			pending = append(pending, p)
			return !left && len(pending) != c.budget.MaxEntries
		})
		w.ReadPending(b, actor, pending)
	}
}
