package ledger

import "github.com/syncsim/syncsim/faults"

// Truncations follows each backend's last log truncation under a live
// connection to the first fetch after it, to tell whether the host can
// still converge (property liveness-converge).
//
// NB: the original detects a truncated log only by comparing revisions
// (SPEC 6.3 step 3, 6.4 step 3: fetchDiverged = currentCursor < after; 6.6
// reconcile: currentRev < the local cursor's rev). When the truncated log
// grows back past the host's cursor before the host fetches again, the new
// entries at revisions the host already passed are invisible to it for
// good: `exec; truncate; exec` on one backend (corpus
// spec-truncation-outrun-is-invisible.txt) leaves the second command's
// file unpulled, faithfully to the contract. Such a backend is "blind" and
// is not held to convergence; every other lost log is. The zero value is
// ready.
type Truncations struct {
	pending []bool  // a truncation awaits its first fetch
	after   []int64 // the remote's current revision right after it
	blind   []bool  // the first fetch after it could not see it
}

func (w *Truncations) grow(n int) {
	for len(w.pending) < n {
		w.pending = append(w.pending, false)
		w.after = append(w.after, 0)
		w.blind = append(w.blind, false)
	}
}

// Truncated notes a truncation of backend b, whose log now ends at rev.
func (w *Truncations) Truncated(b int, rev int64) {
	w.grow(b + 1)
	w.pending[b], w.after[b], w.blind[b] = true, rev, false
}

// Replaced notes a crash or restart of backend b: the new connection's
// reconcile resets the host, so an earlier blind truncation no longer
// matters.
func (w *Truncations) Replaced(b int) {
	w.grow(b + 1)
	w.pending[b], w.blind[b] = false, false
}

// Note reads backend b's newly drained calls. Successful fetches after a
// truncation settle it: one from a cursor at or behind the truncated log's
// end means the host is back on the new log (it was behind it all along,
// or its divergence reset took effect); one from past it that sees the
// remote behind (currentCursor < after) leaves it pending — the reset may
// still fail, say on a local-store fault; one from past it that does not
// is blind: the log grew back past the host's cursor first.
func (w *Truncations) Note(b int, calls []faults.Call) {
	w.grow(b + 1)
	for _, c := range calls {
		if !w.pending[b] || c.Op != faults.OpFetch || c.Err != "" {
			continue
		}
		switch {
		case c.After.Rev <= w.after[b]:
			w.pending[b] = false
		case c.CurrentCursor.Less(c.After):
			// divergence seen; resolved once a fetch starts over
		default:
			w.pending[b], w.blind[b] = false, true
		}
	}
}

// IsBlind reports whether backend b's last truncation was outrun.
func (w *Truncations) IsBlind(b int) bool { return b < len(w.blind) && w.blind[b] }
