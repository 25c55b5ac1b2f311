package oracle

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
)

// Properties push-target and push-batch: SPEC 6.5's push, batch by batch.
//
// push-target: the batches of one push stop at the target its first batch
// captured ("push everything up to the target the first batch captures"),
// so a host write that lands while a push is under way waits for the next
// push instead of stretching this one.
//
// push-batch: every batch is the one 6.5 selects from what the local store
// held: the pending changes after the push cursor, up to the target, at
// most MaxEntries of them, the first always and the rest while their
// content fits MaxBytes; its sender cursor is the last change sent when
// candidates were left over or exactly MaxEntries were found (the
// off-by-one of SPEC 9 S22: no probe for a successor), else the target;
// and no call at all when the cursor has reached the target, or nothing
// was ever pushed and nothing is pending.
//
// When: a batch reads the local store (its push cursor, its current
// revision, its pending changes) and then calls the remote; other actors'
// writes may land between those reads (the local store's calls are
// blocking points too). So the driver tells the watch what the store
// answered, by its model, at each of the actor's reads (ReadRev,
// ReadCursor, ReadPending: the model's state, never the store's answer);
// when the push reaches its blocking point, the actor's latest reads are
// the batch's (Entered, in the actor's order), and the record walk pairs
// them with the push's record entry: an actor's calls are recorded in the
// order it made them.
//
// What an attempt is: the pushes an actor makes to one backend one after
// another with no other call of its own between them and none failing. A
// failed call ends it (a replay captures a new target on a new
// connection), and so does any other call (a reconnect, the exec's spawn,
// a fetch). Its target is the revision the store stood at when its first
// push arrived.

// PendingChange is one pending local change a push could send: its cursor
// and the content bytes it counts against the budget (0 for a delete).
type PendingChange struct {
	Cursor scheduler.Cursor
	Bytes  int64
}

// PushSnapshot is the local store as a push's batch read it: the current
// revision, the push cursor and the pending changes after it up to the
// current revision, in cursor order, at most the budget's entries. Pending
// may stop after the first change the byte budget leaves out: the batch
// rule reads no further.
type PushSnapshot struct {
	Rev     int64
	Cursor  scheduler.Cursor
	Pending []PendingChange
}

// PushBudget is the budget the workspace pushes with (SPEC 6.5's
// PUSH_BATCH when not configured).
type PushBudget struct {
	MaxEntries int
	MaxBytes   int64
}

// pushAttempt is one actor's state on one backend.
type pushAttempt struct {
	actor   string
	read    PushSnapshot   // the actor's latest reads of the store
	entries []PushSnapshot // the store at each push not yet walked, in order
	open    bool
	limit   int64 // the attempt's target revision
	first   int   // Seq of the attempt's first push
}

// PushTargetWatch keeps, per backend, each actor's attempt. Budget must be
// set before the first Note; the rest of the zero value is ready and grows
// to the backends it is told of.
type PushTargetWatch struct {
	Budget   PushBudget
	attempts [][]pushAttempt
	index    []map[string]int // per backend: actor -> its position in attempts
	// Moved counts later pushes of an attempt that arrived after a write
	// past the attempt's target had reached the store: push-target's case
	// (its reachability).
	Moved int
}

// ReadRev records that actor read backend b's current revision, rev by
// the model.
func (w *PushTargetWatch) ReadRev(b int, actor string, rev int64) { w.attempt(b, actor).read.Rev = rev }

// ReadCursor records that actor read backend b's push cursor, c by the
// model.
func (w *PushTargetWatch) ReadCursor(b int, actor string, c scheduler.Cursor) {
	w.attempt(b, actor).read.Cursor = c
}

// ReadPending records that actor read backend b's pending changes when the
// model held pending after its latest cursor read, up to its latest
// revision read (at most the budget's entries; it may stop after the first
// change the byte budget leaves out).
func (w *PushTargetWatch) ReadPending(b int, actor string, pending []PendingChange) {
	w.attempt(b, actor).read.Pending = pending
}

// Latest returns actor's latest reads of backend b.
func (w *PushTargetWatch) Latest(b int, actor string) PushSnapshot { return w.attempt(b, actor).read }

// Entered records that actor's next push to backend b reached its
// blocking point: its latest reads are that batch's.
func (w *PushTargetWatch) Entered(b int, actor string) {
	a := w.attempt(b, actor)
	a.entries = append(a.entries, a.read)
	a.read.Pending = nil
}

// Note judges one call of backend b's record (named name in the
// descriptions), in order. It returns the property a push broke and how,
// or "", "".
func (w *PushTargetWatch) Note(b int, name string, c faults.Call) (property, detail string) {
	if c.Op != faults.OpPush {
		if a := w.find(b, c.Actor); a != nil {
			a.open = false
		}
		return "", ""
	}
	a := w.attempt(b, c.Actor)
	if len(a.entries) == 0 {
		// Never seen at its blocking point (a driver that does not tell
		// the watch): nothing to judge it by.
		a.open = false
		return "", ""
	}
	snap := a.entries[0]
	a.entries = a.entries[1:]
	switch {
	case !a.open:
		a.open, a.limit, a.first = true, snap.Rev, c.Seq
	case snap.Rev > a.limit:
		w.Moved++
	}
	if c.Err != "" {
		defer func() { a.open = false }()
	}
	if c.Sender.Rev > a.limit {
		return "push-target", fmt.Sprintf("%s: push #%d to %s sent up to %s, past local revision %d, where the store stood when the first push of its run (#%d) was sent: a push stops at the target its first batch captured (SPEC 6.5)",
			c.Actor, c.Seq, name, c.Sender, a.limit, a.first)
	}
	return w.judgeBatch(name, c, snap, scheduler.At(a.limit))
}

// judgeBatch is push-batch for push c, read against the store snap and the
// attempt's target tgt.
func (w *PushTargetWatch) judgeBatch(name string, c faults.Call, snap PushSnapshot, tgt scheduler.Cursor) (property, detail string) {
	if !snap.Cursor.Less(tgt) {
		return "push-batch", fmt.Sprintf("%s: push #%d to %s sent a batch with the push cursor at %s, already at the target %s: the push was complete without a call (SPEC 6.5)",
			c.Actor, c.Seq, name, snap.Cursor, tgt)
	}
	cands := snap.Pending
	for i, p := range cands {
		if tgt.Less(p.Cursor) {
			cands = cands[:i]
			break
		}
	}
	if len(cands) == 0 && snap.Cursor == scheduler.Baseline {
		return "push-batch", fmt.Sprintf("%s: push #%d to %s sent a batch though nothing was ever pushed and nothing is pending: no remote call (SPEC 6.5)",
			c.Actor, c.Seq, name)
	}
	selected, bytes := 0, int64(0)
	for _, p := range cands {
		if selected > 0 && bytes+p.Bytes > w.Budget.MaxBytes {
			break
		}
		bytes += p.Bytes
		selected++
	}
	sender := tgt
	if selected < len(cands) || len(cands) == w.Budget.MaxEntries {
		sender = cands[selected-1].Cursor
	}
	if c.Changes != selected || c.Sender != sender {
		return "push-batch", fmt.Sprintf("%s: push #%d to %s: expected %d changes up to %s (of the first %d pending after the push cursor %s up to the target %s, under the budget {entries %d, bytes %d}), got %d changes up to %s (SPEC 6.5)",
			c.Actor, c.Seq, name, selected, sender, len(cands), snap.Cursor, tgt, w.Budget.MaxEntries, w.Budget.MaxBytes, c.Changes, c.Sender)
	}
	return "", ""
}

// find returns actor's state on backend b, nil when it never pushed there.
// An index by actor keeps it constant-time: a long run has thousands of
// actors, and every call of the record is looked up (a scan grew each
// step's cost with the run's length).
func (w *PushTargetWatch) find(b int, actor string) *pushAttempt {
	if b >= len(w.index) {
		return nil
	}
	if i, ok := w.index[b][actor]; ok {
		return &w.attempts[b][i]
	}
	return nil
}

// attempt returns actor's state on backend b, adding it when new.
func (w *PushTargetWatch) attempt(b int, actor string) *pushAttempt {
	if a := w.find(b, actor); a != nil {
		return a
	}
	for len(w.attempts) <= b {
		w.attempts = append(w.attempts, nil)
		w.index = append(w.index, map[string]int{})
	}
	w.index[b][actor] = len(w.attempts[b])
	w.attempts[b] = append(w.attempts[b], pushAttempt{actor: actor})
	return &w.attempts[b][len(w.attempts[b])-1]
}
