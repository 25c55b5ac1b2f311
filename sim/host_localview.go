package sim

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/sim/oracle"
	"github.com/syncsim/syncsim/workspace"
)

// The host's view of a backend whose runtime kept its whole log (no crash,
// restart, lost identity or truncation: faults.Container.Survived), checked
// between steps, when no operation is in flight:
//
//   - cursor-monotone (SPEC 11.7): the local fetch cursor never moves back.
//     Only a divergence reset or reconcile may move it back, and with the
//     log intact neither has cause to.
//   - pushed-applied (SPEC 6.2, 6.5): the mirror image for pushes — every
//     host write at or before the remote's applied-push cursor (its fetch
//     cursor, in the host's revision space) is on the remote with that
//     content: the remote never claims a push it did not take in; and the
//     local push cursor is never past that cursor (SPEC 6.7: cursors
//     advance only after the work is committed).
//   - fetched-applied (SPEC 6.3 step 7, 6.4, 8.7): the fetch cursor never
//     passes the remote's snapshot, every remote file whose latest state
//     is at or before it is in the local store with that content, and no
//     path the remote deleted at or before it is. A cursor
//     written before the entries it covers are applied, then cut by a host
//     restart, shows here.
//
// Backends whose log moved are left to the liveness checks: their cursors
// legitimately reset, and a new log reuses revisions for new content.

// checkLocalViews runs both properties on every surviving backend.
//
// NB: the file comparison costs a listing of both sides, so it runs only
// when one of the two cursors it is about moved since the last check, or
// the host restarted since (a store reopened must hold what it held):
// between those, neither side of what it compares can legitimately change.
func (h *Host) checkLocalViews() *Violation {
	for len(h.lastFetch) < len(h.containers) {
		h.lastFetch = append(h.lastFetch, scheduler.Cursor{})
		h.lastPushed = append(h.lastPushed, scheduler.Cursor{})
	}
	restarted := h.viewStarts != h.starts
	h.viewStarts = h.starts
	for i, c := range h.containers {
		if !c.Survived() {
			continue
		}
		name := h.names[i]
		cur, err := h.store.FetchCursor(name)
		if err != nil {
			return h.failStore("durability", fmt.Errorf("local store FetchCursor(%s): %w", name, err))
		}
		push, err := h.store.PushCursor(name)
		if err != nil {
			return h.failStore("durability", fmt.Errorf("local store PushCursor(%s): %w", name, err))
		}
		// The store's answers are the store model's first (local-store): a
		// cursor stored wrong is a fault of the store at the write, before
		// it is one of the pull that wrote it.
		if h.hist.Reads(history.LocalView) {
			h.appendEvent(history.Event{Kind: history.LocalView, Backend: i, View: &history.View{Fetch: cur, Push: push}})
			if h.violated != nil {
				return h.violated
			}
		}
		if cur.Compare(h.lastFetch[i]) < 0 {
			return h.fail("cursor-monotone", fmt.Sprintf("backend %s: fetch cursor moved back from %s to %s with the remote's log intact", name, h.lastFetch[i], cur))
		}
		moved := cur != h.lastFetch[i]
		h.lastFetch[i] = cur
		marks := c.Watermarks()
		moved = moved || marks.FetchCursor != h.lastPushed[i]
		h.lastPushed[i] = marks.FetchCursor
		if cur.Rev > marks.CurrentRev {
			return h.fail("fetched-applied", fmt.Sprintf("backend %s: fetch cursor %s is past the remote's current revision %d", name, cur, marks.CurrentRev))
		}
		// SPEC 6.7: a cursor advances only after its work is committed,
		// so the local push cursor is never past what the remote has
		// acknowledged taking in.
		if marks.FetchCursor.Less(push) {
			return h.fail("pushed-applied", fmt.Sprintf("backend %s: local push cursor %s is past the remote's applied-push cursor %s: a push was recorded as sent before the remote took it in", name, push, marks.FetchCursor))
		}
		if cur.Rev == 0 && marks.FetchCursor.Rev == 0 || !moved && !restarted {
			continue
		}
		local, err := h.localFiles(i)
		if err != nil {
			return h.failStore("durability", fmt.Errorf("local store Files(%s): %w", name, err))
		}
		content := oracle.IndexFiles(local)
		remote := c.Files()
		if v := h.checkPushedApplied(name, marks.FetchCursor, local, remote); v != nil {
			return v
		}
		for _, f := range remote {
			if strings.HasPrefix(f.Path, hostPrefix) {
				continue // the host's own writes are never fetched back
			}
			if (scheduler.Cursor{Rev: f.Rev, Path: f.Path, HasPath: true}).Compare(cur) > 0 {
				continue
			}
			got, ok := content.Get(f.Path)
			if !ok {
				return h.fail("fetched-applied", fmt.Sprintf("backend %s: fetch cursor %s covers remote %s at rev %d, which the local store does not hold", name, cur, f.Path, f.Rev))
			}
			if !bytes.Equal(got, f.Content) {
				return h.fail("fetched-applied", fmt.Sprintf("backend %s: fetch cursor %s covers remote %s at rev %d = %q, the local store holds %q", name, cur, f.Path, f.Rev, f.Content, got))
			}
		}
		// A command's delete is an entry like a write: once the cursor
		// covers it, the local store must not hold the path.
		for _, d := range c.Tombstones() {
			if d.Compare(cur) > 0 {
				continue
			}
			if got, ok := content.Get(d.Path); ok {
				return h.fail("fetched-applied", fmt.Sprintf("backend %s: fetch cursor %s covers the remote's delete of %s at rev %d, the local store still holds it (%q)", name, cur, d.Path, d.Rev, got))
			}
		}
	}
	return nil
}

// checkPushedApplied is property pushed-applied for one backend.
func (h *Host) checkPushedApplied(name string, pushed scheduler.Cursor, local, remote []workspace.File) *Violation {
	if pushed.Rev == 0 {
		return nil
	}
	onRemote := oracle.IndexFiles(remote)
	for _, f := range oracle.HostWritten(local) {
		if (scheduler.Cursor{Rev: f.Rev, Path: f.Path, HasPath: true}).Compare(pushed) > 0 {
			continue
		}
		got, ok := onRemote.Get(f.Path)
		if !ok {
			return h.fail("pushed-applied", fmt.Sprintf("backend %s: the remote's applied-push cursor %s covers host write %s at local rev %d, which the remote does not hold", name, pushed, f.Path, f.Rev))
		}
		if !bytes.Equal(got, f.Content) {
			return h.fail("pushed-applied", fmt.Sprintf("backend %s: the remote's applied-push cursor %s covers host write %s = %q, the remote holds %q", name, pushed, f.Path, f.Content, got))
		}
	}
	return nil
}
