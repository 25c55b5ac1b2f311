package sim

import (
	"fmt"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
)

// viewLocal appends, between steps, the host's view of every backend whose
// runtime kept its whole log (faults.Container.Survived): its local
// cursors, the remote's revision and applied-push cursor, and, when a
// cursor moved since the backend's last view or the host restarted since,
// both sides' files (a LocalView event each). Properties local-store,
// cursor-monotone, fetched-applied and pushed-applied judge them
// (oracle.LocalStoreChecker, oracle.LocalViewChecker). Nothing is read
// when no checker reads the views.
//
// NB: the listings cost a listing of both sides, so they are taken only
// when one of the two cursors they are about moved since the last view, or
// the host restarted since (a store reopened must hold what it held):
// between those, neither side of what they compare can legitimately
// change.
func (h *Host) viewLocal() *Violation {
	if !h.hist.Reads(history.LocalView) {
		return nil
	}
	for len(h.observed.lastFetch) < len(h.backends.containers) {
		h.observed.lastFetch = append(h.observed.lastFetch, scheduler.Cursor{})
		h.observed.lastPushed = append(h.observed.lastPushed, scheduler.Cursor{})
	}
	restarted := h.observed.viewStarts != h.stores.starts
	h.observed.viewStarts = h.stores.starts
	for i, c := range h.backends.containers {
		if !c.Survived() {
			continue
		}
		name := h.backends.names[i]
		cur, err := h.stores.store.FetchCursor(name)
		if err != nil {
			return h.failStore("durability", fmt.Errorf("local store FetchCursor(%s): %w", name, err))
		}
		push, err := h.stores.store.PushCursor(name)
		if err != nil {
			return h.failStore("durability", fmt.Errorf("local store PushCursor(%s): %w", name, err))
		}
		marks := c.Watermarks()
		v := &history.View{Fetch: cur, Push: push, CurrentRev: marks.CurrentRev, AppliedPush: marks.FetchCursor}
		moved := cur != h.observed.lastFetch[i] || marks.FetchCursor != h.observed.lastPushed[i]
		h.observed.lastFetch[i], h.observed.lastPushed[i] = cur, marks.FetchCursor
		if (cur.Rev != 0 || marks.FetchCursor.Rev != 0) && (moved || restarted) {
			local, err := h.localFiles(i)
			if err != nil {
				return h.failStore("durability", fmt.Errorf("local store Files(%s): %w", name, err))
			}
			v.Listed, v.Local, v.Remote, v.Tombstones = true, local, c.Files(), c.Tombstones()
		}
		h.appendEvent(history.Event{Kind: history.LocalView, Backend: i, View: v})
		v.Local, v.Remote, v.Tombstones = nil, nil, nil // valid while observed only
		if h.violated != nil {
			return h.violated
		}
	}
	return nil
}
