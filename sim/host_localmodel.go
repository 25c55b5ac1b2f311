package sim

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// The local store against its contract (property local-store). Every call
// the workspace made that reached the store is replayed on model.LocalStore,
// which knows only the calls, never the store's answers; each answer must
// be the model's. A store that miscounts an apply, keeps a superseded local
// change, moves a cursor back or loses a write is caught at the call that
// shows it, naming the call, whichever store is plugged in.
//
// The model's apply counts also make Applied exact (judgeAppliedExact): a
// pull's Applied is the sum of what its last pass's applies changed, and
// what each apply changed is predicted here, not read from the store.
//
// The model shares the contents it is fed (model.NewSharingLocalStore)
// instead of copying them: a host write's content is made fresh for that
// write by the host, an upstream entry's by the runtime that served it
// (faults clones every content it serves), and the workspace hands each to
// the store and never writes into it again. A run with big files moved
// every megabyte through one more copy for the model alone.

// appliedRec is one apply that reached the store: the actor that made it,
// its backend, how far the backend's runtime record had got (which pass of
// the actor's operation it belongs to), the count a correct store gives,
// and the entries it carried (how many, the first and the last), which
// apply-batch holds to what the stream served (host_applybatch.go).
type appliedRec struct {
	actor       string
	backend     string
	pos         int
	n           int
	entries     int
	first, last scheduler.Cursor
}

// modelMismatch breaks local-store at a call whose answer was not the
// model's. Callers compare first, so the formatting is paid only then.
func (h *Host) modelMismatch(op, backend, arg string, want, got any) {
	call := op + " " + backend
	if arg != "" {
		call += " " + arg
	}
	h.fail("local-store", fmt.Sprintf("%s: local store %s: expected %v, got %v", h.storeActor(), call, want, got))
}

// storeActor names the actor making a local-store call ("host" outside any).
func (h *Host) storeActor() string {
	if a := h.rt.Actor(); a != "" {
		return a
	}
	return "host"
}

func (h *Host) modelWriteFile(backend, path string, content []byte, deleted bool, rev int64) {
	if want := h.localModel.WriteFile(backend, path, content, deleted); want != rev {
		h.modelMismatch("write-file", backend, fmt.Sprintf("%q", path), fmt.Sprintf("rev %d", want), fmt.Sprintf("rev %d", rev))
	}
}

func (h *Host) modelApplyUpstream(backend string, changes []workspace.Change, n int) {
	in := make([]model.LocalChange, len(changes))
	for i, c := range changes {
		in[i] = model.LocalChange{Rev: c.Rev, Path: c.Path, Deleted: c.Deleted, Content: c.Content}
	}
	want := h.localModel.ApplyUpstream(backend, in)
	if want != n {
		h.modelMismatch("apply-upstream", backend, fmt.Sprintf("of %d entries", len(changes)),
			fmt.Sprintf("%d applied (a delete always counts, a write unless the path holds that content: SPEC 6.7)", want), n)
	}
	rec := appliedRec{actor: h.storeActor(), backend: backend, pos: h.recordPos(backend), n: want, entries: len(changes)}
	if len(changes) > 0 {
		rec.first, rec.last = changes[0].Cursor(), changes[len(changes)-1].Cursor()
	}
	h.applies = append(h.applies, rec)
}

func (h *Host) modelFiles(backend string, got []workspace.File) {
	want := h.localModel.Files(backend)
	same := len(want) == len(got)
	for i := 0; same && i < len(want); i++ {
		same = want[i].Path == got[i].Path && want[i].Rev == got[i].Rev && bytes.Equal(want[i].Content, got[i].Content)
	}
	if !same {
		w := make([]string, len(want))
		for i, f := range want {
			w[i] = fmt.Sprintf("%s@%d", f.Path, f.Rev)
		}
		g := make([]string, len(got))
		for i, f := range got {
			g[i] = fmt.Sprintf("%s@%d", f.Path, f.Rev)
		}
		h.modelMismatch("files", backend, "", "["+strings.Join(w, " ")+"]", "["+strings.Join(g, " ")+"]")
	}
}

func (h *Host) modelLocalChanges(backend string, after, through workspace.Cursor, limit int, got []workspace.Change) {
	// Compared change by change as the model yields them: a push reads up
	// to a batch of changes on every batch, and the list is built only to
	// describe a mismatch.
	n, same := 0, true
	h.localModel.EachLocalChange(backend, after, through, func(w model.LocalChange) bool {
		if limit > 0 && n == limit {
			return false
		}
		same = n < len(got) && w.Rev == got[n].Rev && w.Path == got[n].Path && w.Deleted == got[n].Deleted && bytes.Equal(w.Content, got[n].Content)
		n++
		return same
	})
	if same = same && n == len(got); !same {
		want := h.localModel.LocalChanges(backend, after, through, limit)
		w := make([]string, len(want))
		for i, c := range want {
			w[i] = scheduler.AtPath(c.Rev, c.Path).String()
		}
		g := make([]string, len(got))
		for i, c := range got {
			g[i] = c.Cursor().String()
		}
		h.modelMismatch("local-changes", backend, fmt.Sprintf("(%s, %s] limit %d", after, through, limit),
			"["+strings.Join(w, " ")+"]", "["+strings.Join(g, " ")+"]")
	}
}

// normalCursor drops a path HasPath says is absent, so that cursors compare
// as the values they mean.
func normalCursor(c scheduler.Cursor) scheduler.Cursor {
	if !c.HasPath {
		c.Path = ""
	}
	return c
}

// forgetApplies drops the applies of actor (its operation was judged).
func (h *Host) forgetApplies(actor string) {
	out := h.applies[:0]
	for _, a := range h.applies {
		if a.actor != actor {
			out = append(out, a)
		}
	}
	clear(h.applies[len(out):])
	h.applies = out
}

// appliedExact is the Applied a complete pull must report: what the applies
// of its last pass changed, as the model counts them. calls are the actor's
// runtime calls of the pull, in order, with its local-store faults in place.
// A failure ends a pass and its replay starts at the next runtime call, so
// the last pass's applies are those made after the runtime record reached
// the first call following the last failure (a stream closed with an error
// ends nothing: the pull had already stopped reading it).
func (h *Host) appliedExact(f finished, calls []faults.Call) int {
	from := -1
	open := true // looking for the first runtime call from here on
	for _, c := range calls {
		if c.Seq != 0 && open {
			from, open = c.Seq, false
		}
		if c.Err != "" && c.Op != faults.OpStreamClose {
			if c.Seq != 0 {
				from, open = c.Seq, false
			} else {
				open = true
			}
		}
	}
	if open {
		return 0 // no runtime call after the last failure: nothing fetched, nothing applied
	}
	n := 0
	for _, a := range h.applies {
		if a.actor == f.actor && a.backend == h.names[f.backend] && a.pos >= from {
			n += a.n
		}
	}
	return n
}
