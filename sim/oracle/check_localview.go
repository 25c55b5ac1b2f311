package oracle

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/sim/ledger"
	"github.com/syncsim/syncsim/workspace"
)

// LocalViewChecker is the checker of the host's view of a backend whose
// runtime kept its whole log (no crash, restart, lost identity or
// truncation), judged between steps, when no operation is in flight, from
// the driver's snapshot (LocalView):
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
//     path the remote deleted at or before it is. A cursor written before
//     the entries it covers are applied, then cut by a host restart, shows
//     here.
//
// Backends whose log moved get no view: their cursors legitimately reset,
// and a new log reuses revisions for new content (the liveness checks'
// business).
type LocalViewChecker struct {
	want      func(string) bool
	names     []string
	lastFetch []scheduler.Cursor // per backend: the fetch cursor at its last view
}

// Reads: the driver's views between steps.
func (c *LocalViewChecker) Reads() history.Kinds { return history.Of(history.LocalView) }

// Begin starts a run.
func (c *LocalViewChecker) Begin(s history.Setup, _ history.Records) {
	c.names = s.Backends
	c.lastFetch = append(c.lastFetch[:0], make([]scheduler.Cursor, len(s.Backends))...)
}

// Observe judges one backend's view.
func (c *LocalViewChecker) Observe(e *history.Event, rep history.Reporter) {
	if property, detail := c.judge(e.Backend, e.View); detail != "" && (c.want == nil || c.want(property)) {
		rep.Violate(property, detail)
	}
}

func (c *LocalViewChecker) judge(b int, v *history.View) (property, detail string) {
	name, cur, applied := c.names[b], v.Fetch, v.AppliedPush
	last := c.lastFetch[b]
	if cur.Compare(last) < 0 {
		return "cursor-monotone", fmt.Sprintf("backend %s: fetch cursor moved back from %s to %s with the remote's log intact", name, last, cur)
	}
	c.lastFetch[b] = cur
	if cur.Rev > v.CurrentRev {
		return "fetched-applied", fmt.Sprintf("backend %s: fetch cursor %s is past the remote's current revision %d", name, cur, v.CurrentRev)
	}
	// SPEC 6.7: a cursor advances only after its work is committed, so the
	// local push cursor is never past what the remote has acknowledged
	// taking in.
	if applied.Less(v.Push) {
		return "pushed-applied", fmt.Sprintf("backend %s: local push cursor %s is past the remote's applied-push cursor %s: a push was recorded as sent before the remote took it in", name, v.Push, applied)
	}
	if !v.Listed {
		return "", ""
	}
	if detail := pushedApplied(name, applied, v.Local, v.Remote); detail != "" {
		return "pushed-applied", detail
	}
	content := IndexFiles(v.Local)
	for _, f := range v.Remote {
		if strings.HasPrefix(f.Path, ledger.HostPrefix) {
			continue // the host's own writes are never fetched back
		}
		if (scheduler.Cursor{Rev: f.Rev, Path: f.Path, HasPath: true}).Compare(cur) > 0 {
			continue
		}
		got, ok := content.Get(f.Path)
		if !ok {
			return "fetched-applied", fmt.Sprintf("backend %s: fetch cursor %s covers remote %s at rev %d, which the local store does not hold", name, cur, f.Path, f.Rev)
		}
		if !bytes.Equal(got, f.Content) {
			return "fetched-applied", fmt.Sprintf("backend %s: fetch cursor %s covers remote %s at rev %d = %q, the local store holds %q", name, cur, f.Path, f.Rev, f.Content, got)
		}
	}
	// A command's delete is an entry like a write: once the cursor covers
	// it, the local store must not hold the path.
	for _, d := range v.Tombstones {
		if d.Compare(cur) > 0 {
			continue
		}
		if got, ok := content.Get(d.Path); ok {
			return "fetched-applied", fmt.Sprintf("backend %s: fetch cursor %s covers the remote's delete of %s at rev %d, the local store still holds it (%q)", name, cur, d.Path, d.Rev, got)
		}
	}
	return "", ""
}

// pushedApplied is pushed-applied's file rule for one backend: every host
// write at or before the remote's applied-push cursor is on the remote
// with that content.
func pushedApplied(name string, pushed scheduler.Cursor, local, remote []workspace.File) string {
	if pushed.Rev == 0 {
		return ""
	}
	onRemote := IndexFiles(remote)
	for _, f := range HostWritten(local) {
		if (scheduler.Cursor{Rev: f.Rev, Path: f.Path, HasPath: true}).Compare(pushed) > 0 {
			continue
		}
		got, ok := onRemote.Get(f.Path)
		if !ok {
			return fmt.Sprintf("backend %s: the remote's applied-push cursor %s covers host write %s at local rev %d, which the remote does not hold", name, pushed, f.Path, f.Rev)
		}
		if !bytes.Equal(got, f.Content) {
			return fmt.Sprintf("backend %s: the remote's applied-push cursor %s covers host write %s = %q, the remote holds %q", name, pushed, f.Path, f.Content, got)
		}
	}
	return ""
}
