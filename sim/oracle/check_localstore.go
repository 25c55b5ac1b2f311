package oracle

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// LocalStoreChecker is the checker of property local-store: the local store
// against its contract. Every call that reached the store (a LocalCall
// event) is replayed on model.LocalStore, which knows only the calls, never
// the store's answers; each answer must be the model's. A store that
// miscounts an apply, keeps a superseded local change, moves a cursor back
// or loses a write is caught at the call that shows it, naming the call,
// whichever store is plugged in. Between steps the cursors the driver read
// (LocalView) are held to the model too: a cursor stored wrong is a fault
// of the store at the write, before it is one of the pull that wrote it.
// And a content the store handed out must never change afterwards
// (LocalMutated: the driver watches the memory the store shares).
//
// The model shares the contents it is fed (model.NewSharingLocalStore)
// instead of copying them: a host write's content is made fresh for that
// write by the host, an upstream entry's by the runtime that served it
// (faults clones every content it serves), and the workspace hands each to
// the store and never writes into it again. A run with big files moved
// every megabyte through one more copy for the model alone.
type LocalStoreChecker struct {
	names []string
	model *model.LocalStore
	apply []model.LocalChange // reused: an apply's entries, as the model takes them
}

// Reads: the local store's calls, the driver's reads of its cursors
// between steps, and the contents found changed in place.
func (c *LocalStoreChecker) Reads() history.Kinds {
	return history.Of(history.LocalCall, history.LocalView, history.LocalMutated)
}

// Begin starts a run: the store is empty.
func (c *LocalStoreChecker) Begin(s history.Setup, _ history.Records) {
	c.names = s.Backends
	c.model = model.NewSharingLocalStore()
}

// Observe replays one call on the model, or holds a view or a watched
// content to it.
func (c *LocalStoreChecker) Observe(e *history.Event, rep history.Reporter) {
	switch e.Kind {
	case history.LocalCall:
		c.call(e, rep)
	case history.LocalView:
		c.view(e, rep)
	case history.LocalMutated:
		m := e.Mutated
		rep.Violate("local-store", fmt.Sprintf("%s: local store %s %s: the content of %s (rev %d) that %s %s handed out earlier changed in place from %q to %q: a store must not modify a content it has handed out (workspace.Store, LocalChanges)",
			storeActor(e), m.After, m.Store, m.Path, m.Rev, m.Op, m.From, clipBytes(m.Was), clipBytes(m.Now)))
	}
}

// mismatch reports a call whose answer was not the model's. Callers
// compare first, so the formatting is paid only then.
func mismatch(rep history.Reporter, e *history.Event, op, backend, arg string, want, got any) {
	call := op + " " + backend
	if arg != "" {
		call += " " + arg
	}
	rep.Violate("local-store", fmt.Sprintf("%s: local store %s: expected %v, got %v", storeActor(e), call, want, got))
}

// storeActor names the actor that made a local-store call ("host" outside
// any).
func storeActor(e *history.Event) string {
	if e.Actor != "" {
		return e.Actor
	}
	return "host"
}

func (c *LocalStoreChecker) call(e *history.Event, rep history.Reporter) {
	l, m := e.Local, c.model
	b := l.Store
	switch l.Op {
	case "write-file":
		if want := m.WriteFile(b, l.Path, l.Content, l.Deleted); want != l.Rev {
			mismatch(rep, e, l.Op, b, fmt.Sprintf("%q", l.Path), fmt.Sprintf("rev %d", want), fmt.Sprintf("rev %d", l.Rev))
		}
	case "apply-upstream":
		c.apply = c.apply[:0]
		for _, ch := range l.Changes {
			c.apply = append(c.apply, model.LocalChange{Rev: ch.Rev, Path: ch.Path, Deleted: ch.Deleted, Content: ch.Content})
		}
		want := m.ApplyUpstream(b, c.apply)
		clear(c.apply) // the model keeps the contents, not the slice
		if want != l.N {
			mismatch(rep, e, l.Op, b, fmt.Sprintf("of %d entries", len(l.Changes)),
				fmt.Sprintf("%d applied (a delete always counts, a write unless the path holds that content: SPEC 6.7)", want), l.N)
		}
	case "files":
		if want := m.Files(b); !sameFiles(want, l.Files) {
			mismatch(rep, e, l.Op, b, "", filesText(want), workspaceFilesText(l.Files))
		}
	case "current-rev":
		if want := m.CurrentRev(b); want != l.Rev {
			mismatch(rep, e, l.Op, b, "", want, l.Rev)
		}
	case "local-changes":
		c.localChanges(e, rep)
	case "fetch-cursor":
		if want := m.FetchCursor(b); want != NormalCursor(l.Cursor) {
			mismatch(rep, e, l.Op, b, "", want, l.Cursor)
		}
	case "write-fetch-cursor":
		m.WriteFetchCursor(b, l.Cursor)
	case "write-fetch-cursor-if-ahead":
		if want := m.WriteFetchCursorIfAhead(b, l.Cursor); want != l.OK {
			mismatch(rep, e, l.Op, b, l.Cursor.String(), want, l.OK)
		}
	case "push-rev":
		if want := m.PushRev(b); want != l.Rev {
			mismatch(rep, e, l.Op, b, "", want, l.Rev)
		}
	case "set-push-rev":
		m.SetPushRev(b, l.Rev)
	case "push-cursor":
		if want := m.PushCursor(b); want != NormalCursor(l.Cursor) {
			mismatch(rep, e, l.Op, b, "", want, l.Cursor)
		}
	case "write-push-cursor":
		m.WritePushCursor(b, l.Cursor)
	}
}

// localChanges compares a local-changes answer change by change as the
// model yields them: a push reads up to a batch of changes on every batch,
// and the list is built only to describe a mismatch.
func (c *LocalStoreChecker) localChanges(e *history.Event, rep history.Reporter) {
	l, got := e.Local, e.Local.Changes
	n, same := 0, true
	c.model.EachLocalChange(l.Store, l.After, l.Through, func(w model.LocalChange) bool {
		if l.Limit > 0 && n == l.Limit {
			return false
		}
		same = n < len(got) && w.Rev == got[n].Rev && w.Path == got[n].Path && w.Deleted == got[n].Deleted && bytes.Equal(w.Content, got[n].Content)
		n++
		return same
	})
	if same && n == len(got) {
		return
	}
	want := c.model.LocalChanges(l.Store, l.After, l.Through, l.Limit)
	w := make([]string, len(want))
	for i, ch := range want {
		w[i] = scheduler.AtPath(ch.Rev, ch.Path).String()
	}
	g := make([]string, len(got))
	for i, ch := range got {
		g[i] = ch.Cursor().String()
	}
	mismatch(rep, e, l.Op, l.Store, fmt.Sprintf("(%s, %s] limit %d", l.After, l.Through, l.Limit),
		"["+strings.Join(w, " ")+"]", "["+strings.Join(g, " ")+"]")
}

// view holds the cursors the driver read between steps to the model.
func (c *LocalStoreChecker) view(e *history.Event, rep history.Reporter) {
	// The driver's own reads, outside any actor: named as the host's.
	b := c.names[e.Backend]
	if want := c.model.FetchCursor(b); want != NormalCursor(e.View.Fetch) {
		mismatch(rep, e, "fetch-cursor", b, "", want, e.View.Fetch)
		return
	}
	if want := c.model.PushCursor(b); want != NormalCursor(e.View.Push) {
		mismatch(rep, e, "push-cursor", b, "", want, e.View.Push)
	}
}

// NormalCursor drops a path HasPath says is absent, so that cursors
// compare as the values they mean.
func NormalCursor(c scheduler.Cursor) scheduler.Cursor {
	if !c.HasPath {
		c.Path = ""
	}
	return c
}

// sameFiles reports whether a listing is the model's, in order.
func sameFiles(want []model.LocalFile, got []workspace.File) bool {
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		if want[i].Path != got[i].Path || want[i].Rev != got[i].Rev || !bytes.Equal(want[i].Content, got[i].Content) {
			return false
		}
	}
	return true
}

func filesText(fs []model.LocalFile) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = fmt.Sprintf("%s@%d", f.Path, f.Rev)
	}
	return "[" + strings.Join(s, " ") + "]"
}

func workspaceFilesText(fs []workspace.File) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = fmt.Sprintf("%s@%d", f.Path, f.Rev)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// clipBytes shortens b for a message.
func clipBytes(b []byte) string {
	const max = 80
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}
