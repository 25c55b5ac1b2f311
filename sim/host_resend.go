package sim

import (
	"fmt"
	"slices"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
)

// Property push-resend: a push never re-sends a change the remote had
// already acknowledged *and* the host had durably recorded as acknowledged
// (SPEC 6.5, 6.6, 6.7).
//
// Why it must hold: a push starts at the local push cursor, which is
// written only after the remote acknowledged the batch (6.5, 6.7), and
// moves back only by an explicit reset: reconcile when the remote's fetch
// cursor is behind the local push cursor (6.6), or a divergence reset when
// the remote's applied-push cursor is behind the local pushRev (6.3 step 4,
// 6.4 step 3). In this repository's remote the applied-push cursor only
// grows until its log is emptied (a restart, a truncation, the relaunch
// after a crash: Container.LogEpoch), so while the log stands no reset has
// cause, and a change at or before the acknowledged mark never travels
// again. A reset without cause costs no data (the remote's apply is
// idempotent), which is why no other property sees it: only the waste.
//
// What is "acknowledged": the mark is the highest push cursor the local
// store took (a WritePushCursor that returned), clipped to the remote's
// applied-push cursor at that moment, so a cursor written before its
// acknowledgement (another property's bug) does not widen the mark. A
// reply lost after the remote applied (transport-post-dispatch), a crash
// before the cursor write, a failed write: the host never recorded those,
// so re-sending them is the SPEC's replay, not waste. A new log epoch
// clears the mark: after the remote lost its log the SPEC resets to the
// baseline and re-sends everything, acknowledged or not.
//
// When: the mark is stamped with the container's record position at the
// write, and the record is walked in order (drainRecords), so each push is
// judged against the mark as it stood when the push arrived, never against
// a later one.

// pushMark is one raise of the acknowledged mark of one backend.
type pushMark struct {
	seq    int              // the container's record length at the write
	epoch  int              // the container's LogEpoch then
	cursor scheduler.Cursor // the mark: min(written cursor, remote's applied-push cursor)
}

// resendWatch keeps, per backend, the marks not yet applied and the mark
// in force for the record walked so far.
type resendWatch struct {
	pending [][]pushMark
	current []pushMark
	set     []bool
}

func (w *resendWatch) init(n int) {
	w.pending, w.current, w.set = make([][]pushMark, n), make([]pushMark, n), make([]bool, n)
}

// notePushCursor is told of every push cursor the local store took.
func (h *Host) notePushCursor(backend string, c scheduler.Cursor) {
	i := slices.Index(h.names, backend)
	if i < 0 || h.resend.pending == nil {
		return // the store probe's own backend, or before the run began
	}
	ct := h.containers[i]
	mark := c
	if applied := ct.Watermarks().FetchCursor; applied.Less(mark) {
		mark = applied
	}
	h.resend.pending[i] = append(h.resend.pending[i], pushMark{seq: ct.Mark(), epoch: ct.LogEpoch(), cursor: mark})
}

// checkResend is push-resend for one call of backend b's record, in order.
func (h *Host) checkResend(b int, c faults.Call) {
	w := &h.resend
	if w.pending == nil {
		return
	}
	p := w.pending[b]
	n := 0
	for n < len(p) && p[n].seq < c.Seq {
		m := p[n]
		if !w.set[b] || w.current[b].epoch != m.epoch || w.current[b].cursor.Less(m.cursor) {
			w.current[b], w.set[b] = m, true
		}
		n++
	}
	w.pending[b] = p[n:]
	if c.Op != faults.OpPush || c.Changes == 0 || !w.set[b] {
		return
	}
	m := w.current[b]
	if m.epoch != c.LogEpoch {
		return
	}
	// Reachability: a push with changes after an acknowledgement the host
	// recorded, on the same log.
	h.stats.Faults["push-after-ack"]++
	if m.cursor.Less(c.FirstChange) {
		return
	}
	h.fail("push-resend", fmt.Sprintf("%s: push #%d to %s re-sent %s, at or before %s, which the remote had acknowledged and the host had recorded (its push cursor) with the remote's log intact since: a push cursor moved back without cause (SPEC 6.5, 6.6)",
		c.Actor, c.Seq, h.names[b], c.FirstChange, m.cursor))
}
