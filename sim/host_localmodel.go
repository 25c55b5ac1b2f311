package sim

import (
	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// The host's own copy of the local store's model, for what it still
// judges from it (push-target's reads, the views, the apply counts of
// property applied); property local-store is oracle.LocalStoreChecker's.
// The model's apply counts make Applied exact (appliedExact): a pull's
// Applied is the sum of what its last pass's applies changed, and what each
// apply changed is predicted here, not read from the store. The model
// shares the contents it is fed (model.NewSharingLocalStore; why:
// oracle.LocalStoreChecker).

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

func (h *Host) modelApplyUpstream(backend string, changes []workspace.Change) {
	in := make([]model.LocalChange, len(changes))
	for i, c := range changes {
		in[i] = model.LocalChange{Rev: c.Rev, Path: c.Path, Deleted: c.Deleted, Content: c.Content}
	}
	want := h.localModel.ApplyUpstream(backend, in)
	actor := h.rt.Actor()
	if actor == "" {
		actor = "host"
	}
	rec := appliedRec{actor: actor, backend: backend, pos: h.recordPos(backend), n: want, entries: len(changes)}
	if len(changes) > 0 {
		rec.first, rec.last = changes[0].Cursor(), changes[len(changes)-1].Cursor()
	}
	h.applies = append(h.applies, rec)
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
