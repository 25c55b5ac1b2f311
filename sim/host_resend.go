package sim

import (
	"slices"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
)

// notePushCursorWritten appends the local store's taking push cursor c for
// backend, with where the backend's remote stood then (property
// push-resend reads it: oracle.PushResendChecker).
func (h *Host) notePushCursorWritten(backend string, c scheduler.Cursor) {
	i := slices.Index(h.names, backend)
	var remote history.Remote
	if i >= 0 { // not the store probe's own backend
		ct := h.containers[i]
		remote = history.Remote{Mark: ct.Mark(), LogEpoch: ct.LogEpoch(), AppliedPush: ct.Watermarks().FetchCursor}
	}
	h.appendEvent(history.Event{Kind: history.LocalCall, Actor: h.rt.Actor(), Backend: i,
		Local: &history.Local{Op: "write-push-cursor", Cursor: c, Remote: remote}})
}
