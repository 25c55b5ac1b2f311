package oracle

import (
	"fmt"

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
// write, and the record is walked in order (the driver feeds Note call by
// call), so each push is judged against the mark as it stood when the push
// arrived, never against a later one.

// PushMark is one raise of the acknowledged mark of one backend.
type PushMark struct {
	Seq    int              // the container's record length at the write (faults.Container.Mark)
	Epoch  int              // the container's LogEpoch then
	Cursor scheduler.Cursor // the mark: min(written cursor, remote's applied-push cursor)
}

// ResendWatch keeps, per backend, the marks not yet applied and the mark
// in force for the record walked so far. Init sizes it; before that it
// ignores everything.
type ResendWatch struct {
	pending [][]PushMark
	current []PushMark
	set     []bool
}

// Init readies the watch for n backends, with no mark.
func (w *ResendWatch) Init(n int) {
	w.pending, w.current, w.set = make([][]PushMark, n), make([]PushMark, n), make([]bool, n)
}

// Acknowledged records a push cursor the local store took for backend b,
// as mark m: it comes into force for the calls after m.Seq.
func (w *ResendWatch) Acknowledged(b int, m PushMark) {
	if w.pending == nil {
		return // before the run began
	}
	w.pending[b] = append(w.pending[b], m)
}

// Note is push-resend for one call of backend b's record (named name in
// the description), in order. reached reports a push with changes after an
// acknowledgement the host recorded, on the same log (the property's
// reachability count); detail, when not "", describes a push that re-sent
// a change at or before the mark.
func (w *ResendWatch) Note(b int, name string, c faults.Call) (reached bool, detail string) {
	if w.pending == nil {
		return false, ""
	}
	p := w.pending[b]
	n := 0
	for n < len(p) && p[n].Seq < c.Seq {
		m := p[n]
		if !w.set[b] || w.current[b].Epoch != m.Epoch || w.current[b].Cursor.Less(m.Cursor) {
			w.current[b], w.set[b] = m, true
		}
		n++
	}
	w.pending[b] = p[n:]
	if c.Op != faults.OpPush || c.Changes == 0 || !w.set[b] {
		return false, ""
	}
	m := w.current[b]
	if m.Epoch != c.LogEpoch {
		return false, ""
	}
	if m.Cursor.Less(c.FirstChange) {
		return true, ""
	}
	return true, fmt.Sprintf("%s: push #%d to %s re-sent %s, at or before %s, which the remote had acknowledged and the host had recorded (its push cursor) with the remote's log intact since: a push cursor moved back without cause (SPEC 6.5, 6.6)",
		c.Actor, c.Seq, name, c.FirstChange, m.Cursor)
}
