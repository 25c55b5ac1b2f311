package sim

import (
	"slices"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/oracle"
)

// Property push-resend (the rule: oracle.ResendWatch). The host stamps each
// push cursor the local store took with where the remote stood, and walks
// every runtime call past the watch in record order (drainRecords).

// notePushCursor is told of every push cursor the local store took.
func (h *Host) notePushCursor(backend string, c scheduler.Cursor) {
	i := slices.Index(h.names, backend)
	if i < 0 {
		return // the store probe's own backend
	}
	ct := h.containers[i]
	mark := c
	if applied := ct.Watermarks().FetchCursor; applied.Less(mark) {
		mark = applied
	}
	h.oracle.Resend.Acknowledged(i, oracle.PushMark{Seq: ct.Mark(), Epoch: ct.LogEpoch(), Cursor: mark})
}

// checkResend is push-resend for one call of backend b's record, in order.
func (h *Host) checkResend(b int, c faults.Call) {
	reached, detail := h.oracle.Resend.Note(b, h.names[b], c)
	if reached {
		h.stats.Faults["push-after-ack"]++
	}
	if detail != "" {
		h.fail("push-resend", detail)
	}
}
