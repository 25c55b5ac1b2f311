package sim

import (
	"math/rand/v2"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// The store probe. The workspace calls its local store only the ways a
// correct workspace needs: cursors are always ahead when it writes them, a
// push window never ends exactly on a pending change, upstream entries
// rarely meet a path with a pending host write, a delete rarely names a
// path the store lacks. A store wrong only there would pass every run. So
// at its first start (in one seed of probeOneIn) the host drives the store
// itself, on a backend of its own that no workspace uses, through a short
// random sequence of every call with those edge inputs, each answer
// checked against the store model like any other (local-store). The probe draws from its own stream, makes
// no trace line and runs on the bare store (no injected fault), so the rest
// of the run is the same with or without it.

// probeOneIn: the store probe, the API probe (host_apiprobe.go) and the
// budget probe (host_budgetprobe.go) run at the first start of one seed in
// this many, drawn from the seed's "probes" stream. Each checks the store
// or the workspace apart from the run, so what a seed adds is only another
// random draw; together they cost about a tenth of a default scenario, and
// a sweep of a thousand seeds still runs some 250 of each. Their own tests
// drive them directly.
const probeOneIn = 4

// probeBackend is the probe's backend id: no workspace backend is named so.
const probeBackend = "syncsim-store-probe"

// probeCalls is how many calls one probe makes.
const probeCalls = 48

var (
	// Two paths differ only in case and one is not ASCII: no workspace
	// path is either.
	probePaths    = []string{"/p/a", "/p/b", "/p/c", "/p/A", "/p/ü"}
	probeContents = []string{"x", "y", ""}
)

// probeLocalStore runs the probe on the bare local store.
func (h *Host) probeLocalStore() {
	r := Stream(h.cfg.Seed, "store-probe")
	st := localStoreCheck{inner: h.stores.store, h: h}
	h.stores.localProbed = true
	var written []scheduler.Cursor // the cursors of the probe's host writes
	rev := int64(0)
	cursor := func() scheduler.Cursor {
		switch r.IntN(3) {
		case 0:
			if len(written) > 0 {
				return written[r.IntN(len(written))] // exactly on a change
			}
		case 1:
			return scheduler.At(r.Int64N(rev + 2))
		}
		return scheduler.AtPath(r.Int64N(rev+2), probePaths[r.IntN(len(probePaths))])
	}
	for range probeCalls {
		if h.violated != nil {
			return
		}
		b := probeBackend
		switch r.IntN(16) {
		case 0, 1, 2, 3:
			p := probePaths[r.IntN(len(probePaths))]
			if got, err := st.WriteFile(b, p, []byte(probeContents[r.IntN(len(probeContents))]), r.IntN(4) == 0); err == nil {
				rev = max(rev, got)
				written = append(written, scheduler.AtPath(got, p))
			}
		case 4, 5, 6:
			_, _ = st.ApplyUpstream(b, probeChanges(r))
		case 7, 8, 9:
			_, _ = st.LocalChanges(b, cursor(), cursor(), r.IntN(4))
		case 10:
			_ = st.WriteFetchCursor(b, cursor())
		case 11, 12:
			_, _ = st.WriteFetchCursorIfAhead(b, cursor())
		case 13:
			_, _ = st.FetchCursor(b)
			_, _ = st.PushCursor(b)
			_, _ = st.PushRev(b)
		case 14:
			if r.IntN(2) == 0 {
				_ = st.SetPushRev(b, r.Int64N(rev+2))
			} else {
				_ = st.WritePushCursor(b, cursor())
			}
		default:
			_, _ = st.CurrentRev(b)
			_, _ = st.Files(b)
		}
	}
}

// probeChanges draws one to three upstream entries on the probe's paths.
func probeChanges(r *rand.Rand) []workspace.Change {
	out := make([]workspace.Change, 1+r.IntN(3))
	for i := range out {
		c := workspace.Change{Rev: 1 + r.Int64N(20), Path: probePaths[r.IntN(len(probePaths))]}
		if r.IntN(4) == 0 {
			c.Deleted = true
		} else {
			c.Content = []byte(probeContents[r.IntN(len(probeContents))])
		}
		out[i] = c
	}
	return out
}
