package ledger

import "slices"

// A host write that returned is durable (SPEC 6.1: the local store makes
// every call one atomic write). The harness, not the workspace, remembers
// which writes were acknowledged; after every step — and so after every host
// restart — each must be in the local store with its content. The driver
// keeps a Writes to draw rewrites and deletes from and asks Due when a
// check may list the store; property host-write's checker keeps its own
// and holds each listing to it (oracle.HostWriteChecker). With the
// liveness properties this closes the loop: liveness-files and liveness-push
// compare local with remote, so a write the local store silently dropped
// would otherwise be missing on both sides and pass.

// Writes holds, per backend, the host-side paths whose write returned
// nil and those whose delete returned nil, each sorted, and the written
// paths in the order they were acknowledged (a delete takes the latest).
// The zero value is ready.
type Writes struct {
	paths  [][]string
	gone   [][]string
	order  [][]string
	fresh  bool // a write or delete was acknowledged since the last check
	starts int  // the host start the last check saw
	// pending counts the acknowledgements since the last listing, total
	// all of them (see Due); force asks for a listing at the next check
	// whatever pending says.
	pending, total int
	force          bool
	// sizes holds, per backend, the size of each acknowledged sized
	// write (HostContentSized); a path not in it holds HostContent.
	sizes []map[string]int
	// versions holds, per backend, the version of each acknowledged
	// rewrite (ContentKey); a path not in it holds its first content.
	versions []map[string]int
}

func (a *Writes) grow(b int) {
	for len(a.paths) <= b {
		a.paths, a.gone, a.order = append(a.paths, nil), append(a.gone, nil), append(a.order, nil)
	}
}

// Add records an acknowledged write of path on backend b.
func (a *Writes) Add(b int, path string) { a.AddSized(b, path, 0) }

// AddSized records an acknowledged write of path on backend b whose
// content HostContentSized gives for size.
func (a *Writes) AddSized(b int, path string, size int) { a.AddVersion(b, path, size, 0) }

// setNonZero sets (*m)[b][path] to v, or deletes it for v <= 0: the
// per-backend maps hold only paths that differ from the default.
func setNonZero(m *[]map[string]int, b int, path string, v int) {
	for len(*m) <= b {
		*m = append(*m, nil)
	}
	switch {
	case v > 0:
		if (*m)[b] == nil {
			(*m)[b] = map[string]int{}
		}
		(*m)[b][path] = v
	case (*m)[b] != nil:
		delete((*m)[b], path)
	}
}

// AddVersion records an acknowledged write of path on backend b whose
// content is HostContentSized(ContentKey(path, version), size).
func (a *Writes) AddVersion(b int, path string, size, version int) {
	a.grow(b)
	setNonZero(&a.versions, b, path, version)
	setNonZero(&a.sizes, b, path, size)
	a.fresh, a.pending, a.total = true, a.pending+1, a.total+1
	if _, again := slices.BinarySearch(a.paths[b], path); again {
		// A rewrite: the path moves to the end of the order, once.
		a.order[b] = slices.DeleteFunc(a.order[b], func(p string) bool { return p == path })
	}
	a.paths[b] = insertSorted(a.paths[b], path)
	a.gone[b] = removeSorted(a.gone[b], path)
	a.order[b] = append(a.order[b], path)
}

// Remove records an acknowledged delete of path on backend b.
func (a *Writes) Remove(b int, path string) {
	a.grow(b)
	a.fresh, a.pending, a.total = true, a.pending+1, a.total+1
	a.paths[b] = removeSorted(a.paths[b], path)
	a.gone[b] = insertSorted(a.gone[b], path)
	a.order[b] = slices.DeleteFunc(a.order[b], func(p string) bool { return p == path })
}

// Latest returns the most recently acknowledged host write on backend b
// that no acknowledged delete removed since.
func (a *Writes) Latest(b int) (string, bool) {
	if b >= len(a.order) || len(a.order[b]) == 0 {
		return "", false
	}
	return a.order[b][len(a.order[b])-1], true
}

// Acked returns backend b's acknowledged host writes that no delete
// removed since, in the order they were acknowledged; the slice is the
// ledger's own and must not be modified.
func (a *Writes) Acked(b int) []string {
	if b >= len(a.order) {
		return nil
	}
	return a.order[b]
}

// VersionOf is the version of the latest acknowledged write of path on
// backend b (0: its first content; see ContentKey).
func (a *Writes) VersionOf(b int, path string) int {
	if b >= len(a.versions) {
		return 0
	}
	return a.versions[b][path]
}

// SizeOf is the size the latest acknowledged write of path on backend b
// was padded to (0: HostContent as it is).
func (a *Writes) SizeOf(b int, path string) int {
	if b >= len(a.sizes) {
		return 0
	}
	return a.sizes[b][path]
}

func insertSorted(s []string, v string) []string {
	if i, found := slices.BinarySearch(s, v); !found {
		return slices.Insert(s, i, v)
	}
	return s
}

func removeSorted(s []string, v string) []string {
	if i, found := slices.BinarySearch(s, v); found {
		return slices.Delete(s, i, i+1)
	}
	return s
}

// Due says whether a host-write check lists the store now, and if so
// starts a new listing period. starts is the driver's count of host
// starts. A check lists the store, which costs as much as the run has
// files, so it runs after every host restart (a reopened store must hold
// every write it ever acknowledged), after Force (the start of the
// liveness tail), and otherwise once the writes acknowledged since the
// last listing are an eighth of all so far: a listing after every
// acknowledged write made a long run's cost per step grow with its length,
// and amortised this way the listings of a run cost a constant factor of
// its writes. A write lost between two listings is still caught, at the
// next one. Nothing is due without an acknowledgement since the last
// listing, except after a restart.
func (a *Writes) Due(starts int) bool {
	restarted := a.starts != starts
	due := a.fresh && a.pending*ackedListEvery >= a.total
	if !restarted && !due && !(a.force && a.fresh) {
		return false
	}
	a.fresh, a.starts, a.pending, a.force = false, starts, 0, false
	return true
}

// Force makes the next Due list the store if anything was acknowledged
// since the last listing.
func (a *Writes) Force() { a.force = true }

// Backends is how many backends have had a write or delete acknowledged
// (indexes 0 up to it; Tracks says which hold any).
func (a *Writes) Backends() int { return len(a.paths) }

// Tracks reports whether backend b has an acknowledged write or delete to
// check.
func (a *Writes) Tracks(b int) bool {
	return b < len(a.paths) && (len(a.paths[b]) > 0 || len(a.gone[b]) > 0)
}

// Written returns backend b's acknowledged written paths, sorted.
func (a *Writes) Written(b int) []string {
	if b >= len(a.paths) {
		return nil
	}
	return a.paths[b]
}

// Deleted returns backend b's acknowledged deleted paths, sorted.
func (a *Writes) Deleted(b int) []string {
	if b >= len(a.gone) {
		return nil
	}
	return a.gone[b]
}

// ackedListEvery: a listing is due once the acknowledgements since the last
// one are at least 1/ackedListEvery of all of them.
const ackedListEvery = 8
