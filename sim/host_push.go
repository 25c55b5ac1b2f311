package sim

import (
	"slices"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/oracle"
	"github.com/syncsim/syncsim/workspace"
)

// specPushBatch is SPEC 6.5's PUSH_BATCH, written here rather than read
// from workspace.DefaultPushBudget (the oracle shares no constant with the
// code it judges).
var specPushBatch = workspace.PushBudget{MaxEntries: 256, MaxBytes: 4 << 20}

// pushBudget is the push batch budget the workspace runs with: Config's,
// with a zero field taking SPEC 6.5's PUSH_BATCH like workspace.New does.
func (h *Host) pushBudget() workspace.PushBudget {
	b := h.cfg.PushBatch
	if b.MaxEntries == 0 {
		b.MaxEntries = specPushBatch.MaxEntries
	}
	if b.MaxBytes == 0 {
		b.MaxBytes = specPushBatch.MaxBytes
	}
	return b
}

// checkPushTarget is properties push-target and push-batch for one call of
// backend b's record, in order (the rules: oracle.PushTargetWatch).
func (h *Host) checkPushTarget(b int, c faults.Call) {
	moved := h.oracle.Target.Moved
	if property, detail := h.oracle.Target.Note(b, h.names[b], c); detail != "" {
		h.fail(property, detail)
	}
	if h.oracle.Target.Moved > moved {
		h.stats.Faults["push-target-moved"]++
	}
}

// notePushEntry tells the push watch that an actor's push to backend b
// reached its blocking point: the actor's latest reads of the local store
// are that batch's.
func (h *Host) notePushEntry(b int) {
	if h.rt.current == nil {
		return // outside any actor: nothing judges it
	}
	h.oracle.Target.Entered(b, h.rt.Actor())
}

// notePushRead tells the push watch what a read of backend's local store
// found, by the model (not the store's answer: the expectation is the
// SPEC's, whatever the store says): the current revision, the push cursor,
// or the pending changes after the actor's latest cursor read up to its
// latest revision read.
func (h *Host) notePushRead(backend string, op string) {
	i := slices.Index(h.names, backend)
	if i < 0 || h.rt.current == nil {
		return // the store probe's backend, or no actor
	}
	actor := h.rt.Actor()
	w := &h.oracle.Target
	switch op {
	case "current-rev":
		w.ReadRev(i, actor, h.localModel.CurrentRev(backend))
	case "push-cursor":
		w.ReadCursor(i, actor, h.localModel.PushCursor(backend))
	case "local-changes":
		budget := h.pushBudget()
		w.Budget = oracle.PushBudget{MaxEntries: budget.MaxEntries, MaxBytes: budget.MaxBytes}
		read := w.Latest(i, actor)
		// The batch rule reads no further than the first change the byte
		// budget leaves out (it shows the batch stopped short of the
		// target): with a tiny budget a long run's push would otherwise
		// copy a whole entry budget of changes on every batch.
		var pending []oracle.PendingChange
		var bytes int64
		h.localModel.EachLocalChange(backend, read.Cursor, scheduler.At(read.Rev), func(c model.LocalChange) bool {
			p := oracle.PendingChange{Cursor: scheduler.AtPath(c.Rev, c.Path)}
			if !c.Deleted {
				p.Bytes = int64(len(c.Content))
			}
			left := len(pending) > 0 && bytes+p.Bytes > budget.MaxBytes
			bytes += p.Bytes
			pending = append(pending, p)
			return !left && len(pending) != budget.MaxEntries
		})
		w.ReadPending(i, actor, pending)
	}
}

// expectedPushCount is what Workspace.Push must return for actor, read
// from the runtime's record: the changes of every push the runtime
// acknowledged to it after its last failed call, up to its last push. A
// failed attempt is replayed from the push cursor the store kept, so only
// the replay's pushes are the result's (SPEC 5.2 "always").
func expectedPushCount(calls []faults.Call, actor string) int {
	last := -1
	for i, c := range calls {
		if c.Actor == actor && c.Op == faults.OpPush && c.Err == "" {
			last = i
		}
	}
	n := 0
	for _, c := range calls[:last+1] {
		if c.Actor != actor {
			continue
		}
		switch {
		case c.Err != "":
			n = 0
		case c.Op == faults.OpPush:
			n += c.Changes
		}
	}
	return n
}
