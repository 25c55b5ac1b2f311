package oracle

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
)

// Property push-target: the batches of one push stop at the target its
// first batch captured (SPEC 6.5: "push everything up to the target the
// first batch captures"), so a host write that lands while a push is under
// way waits for the next push instead of stretching this one.
//
// What the target can be: a batch reads the local store's current revision
// before it sends anything, so the first batch's target is at most the
// revision the store stood at when that batch's push reached its blocking
// point. The driver tells the watch that revision as each push arrives
// there (Entered, in the actor's order), and the record walk pairs it with
// the push's record entry: an actor's calls are recorded in the order it
// made them.
//
// What an attempt is: the pushes an actor makes to one backend one after
// another with no other call of its own between them and none failing. A
// failed call ends it (a replay captures a new target on a new connection),
// and so does any other call (a reconnect, the exec's spawn, a fetch).
//
// Every push of an attempt must then send nothing past the first push's
// revision: its sender cursor, which is at or after every change it
// carries, names a revision at most that.

// pushAttempt is one actor's state on one backend.
type pushAttempt struct {
	actor   string
	entries []int64 // the local revision at each push not yet walked, in order
	open    bool
	limit   int64 // the highest local revision the attempt's target can name
	first   int   // Seq of the attempt's first push
}

// PushTargetWatch keeps, per backend, each actor's attempt. The zero value
// is ready; it grows to the backends it is told of.
type PushTargetWatch struct {
	attempts [][]pushAttempt
	// Moved counts later pushes of an attempt that arrived after a write
	// past the attempt's limit had reached the store: the case the property
	// is about (its reachability).
	Moved int
}

// Entered records that actor's next push to backend b reached its blocking
// point with the local store at revision rev.
func (w *PushTargetWatch) Entered(b int, actor string, rev int64) {
	a := w.attempt(b, actor)
	a.entries = append(a.entries, rev)
}

// Note is push-target for one call of backend b's record (named name in the
// description), in order. It returns a description of a push that sent
// past its attempt's target, else "".
func (w *PushTargetWatch) Note(b int, name string, c faults.Call) string {
	if c.Op != faults.OpPush {
		if a := w.find(b, c.Actor); a != nil {
			a.open = false
		}
		return ""
	}
	a := w.attempt(b, c.Actor)
	if len(a.entries) == 0 {
		// Never seen at its blocking point (a driver that does not
		// tell the watch): nothing to judge it by.
		a.open = false
		return ""
	}
	rev := a.entries[0]
	a.entries = a.entries[1:]
	switch {
	case !a.open:
		a.open, a.limit, a.first = true, rev, c.Seq
	case rev > a.limit:
		w.Moved++
	}
	detail := ""
	if c.Sender.Rev > a.limit {
		detail = fmt.Sprintf("%s: push #%d to %s sent up to %s, past local revision %d, where the store stood when the first push of its run (#%d) was sent: a push stops at the target its first batch captured (SPEC 6.5)",
			c.Actor, c.Seq, name, c.Sender, a.limit, a.first)
	}
	if c.Err != "" {
		a.open = false
	}
	return detail
}

// find returns actor's state on backend b, nil when it never pushed there.
func (w *PushTargetWatch) find(b int, actor string) *pushAttempt {
	if b >= len(w.attempts) {
		return nil
	}
	for i := range w.attempts[b] {
		if w.attempts[b][i].actor == actor {
			return &w.attempts[b][i]
		}
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
	}
	w.attempts[b] = append(w.attempts[b], pushAttempt{actor: actor})
	return &w.attempts[b][len(w.attempts[b])-1]
}
