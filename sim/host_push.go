package sim

import (
	"github.com/syncsim/syncsim/sim/history"
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

// notePushEntry appends that an actor's push to backend b reached its
// blocking point (push-target: its latest reads of the local store are that
// batch's), when a checker reads it.
func (h *Host) notePushEntry(b int) {
	if h.rt.current == nil || !h.hist.Reads(history.PushEntered) {
		return // outside any actor: nothing judges it
	}
	h.appendEvent(history.Event{Kind: history.PushEntered, Actor: h.rt.Actor(), Backend: b})
}
