package model

import (
	"bytes"
	"slices"
	"strings"

	"github.com/syncsim/syncsim/scheduler"
)

// LocalStore is the reference model of the host's local store contract
// (SPEC 6.1 and 6.7, workspace.Store's documentation): what every call on a
// correct store returns, given the calls that reached the store before it.
// The caller feeds it the calls the store actually received, in order (an
// injected fault that failed a call before the store saw it is not fed),
// and compares each answer with the store's. Unlike State it is mutable:
// one instance follows one store for a whole run, host restarts included,
// as the store's own contents do.
//
// It never imports the workspace: changes and files are its own types.
type LocalStore struct {
	backends map[string]*localBackend
	// shared: keep the contents callers hand in rather than copies
	// (NewSharingLocalStore).
	shared bool
}

// LocalChange is one change as the local store takes it (an upstream
// entry) or returns it (a local change a push sends).
type LocalChange struct {
	Rev     int64
	Path    string
	Deleted bool
	Content []byte // nil for a delete
}

// LocalFile is one live file.
type LocalFile struct {
	Path    string
	Content []byte
	Rev     int64 // the local rev of a host write, the remote rev of an upstream apply
}

// pendingChange is one stamped change and whether a later change to its
// path superseded it.
type pendingChange struct {
	LocalChange
	superseded bool
}

// localBackend is one backend's state.
type localBackend struct {
	files      map[string]LocalFile
	currentRev int64
	// byRev holds the changes WriteFile stamped, in stamping (so cursor)
	// order, some of them superseded (their path was written again or
	// changed upstream); pending indexes each path's live change in it.
	// A push reads this list on every batch, so a superseded change is
	// marked where it lies rather than looked up by path on every read.
	pending map[string]int
	byRev   []pendingChange
	// fetch is the stored fetch cursor before the read rule; pushRev the
	// legacy scalar, pushRow the path-aware row (nil: none).
	fetch   scheduler.Cursor
	pushRev int64
	pushRow *scheduler.Cursor
}

// NewLocalStore returns the model of an empty store. It keeps a copy of
// every content it is given.
func NewLocalStore() *LocalStore {
	return &LocalStore{backends: map[string]*localBackend{}}
}

// NewSharingLocalStore is NewLocalStore for a caller that never modifies a
// content after handing it in (WriteFile, ApplyUpstream): the model keeps
// the caller's slice instead of a copy. A simulator that feeds it the
// calls a store received pays otherwise for a second copy of every
// content, megabytes per big write, beside the store's own. Should the
// code that made a call modify its content afterwards, the model follows
// the modification and a correct store (which copied) then disagrees
// with it.
func NewSharingLocalStore() *LocalStore {
	m := NewLocalStore()
	m.shared = true
	return m
}

// keep returns the stored form of a write's content: never nil, and a
// copy unless the model shares contents.
func (m *LocalStore) keep(content []byte) []byte {
	switch {
	case content == nil:
		return []byte{}
	case m.shared:
		return content
	}
	return bytes.Clone(content)
}

func (m *LocalStore) backend(id string) *localBackend {
	b := m.backends[id]
	if b == nil {
		b = &localBackend{files: map[string]LocalFile{}, pending: map[string]int{}}
		m.backends[id] = b
	}
	return b
}

// WriteFile is a host write or delete: the next local revision, the file
// changed, the change pending for a push. It returns the revision a
// correct store stamps.
func (m *LocalStore) WriteFile(backend, path string, content []byte, deleted bool) int64 {
	b := m.backend(backend)
	b.currentRev++
	c := LocalChange{Rev: b.currentRev, Path: path, Deleted: deleted}
	if deleted {
		delete(b.files, path)
	} else {
		c.Content = m.keep(content)
		b.files[path] = LocalFile{Path: path, Content: c.Content, Rev: b.currentRev}
	}
	b.supersede(path)
	b.pending[path] = len(b.byRev)
	b.byRev = append(b.byRev, pendingChange{LocalChange: c})
	if len(b.byRev) > 2*len(b.pending)+16 {
		b.compact()
	}
	return b.currentRev
}

// supersede marks path's pending change, if any, as no longer pending.
func (b *localBackend) supersede(path string) {
	if i, ok := b.pending[path]; ok {
		b.byRev[i].superseded = true
		delete(b.pending, path)
	}
}

// compact drops the superseded changes and re-indexes the rest.
func (b *localBackend) compact() {
	b.byRev = slices.DeleteFunc(b.byRev, func(c pendingChange) bool { return c.superseded })
	for i, c := range b.byRev {
		b.pending[c.Path] = i
	}
}

// ApplyUpstream applies entries pulled from the remote and returns how many
// count as applied (SPEC 6.7): a delete always counts and removes the path
// if present; a write counts unless the path already holds that content,
// and then stamps the file with the entry's remote rev. Whatever changes a
// path supersedes its pending local change; no local revision is stamped.
func (m *LocalStore) ApplyUpstream(backend string, changes []LocalChange) int {
	b := m.backend(backend)
	applied := 0
	for _, c := range changes {
		live, ok := b.files[c.Path]
		switch {
		case c.Deleted:
			applied++
			if ok {
				delete(b.files, c.Path)
				b.supersede(c.Path)
			}
		case ok && bytes.Equal(live.Content, c.Content):
		default:
			applied++
			content := m.keep(c.Content)
			b.files[c.Path] = LocalFile{Path: c.Path, Content: content, Rev: c.Rev}
			b.supersede(c.Path)
		}
	}
	return applied
}

// Files returns the live files in path order.
func (m *LocalStore) Files(backend string) []LocalFile {
	b := m.backend(backend)
	out := make([]LocalFile, 0, len(b.files))
	for _, f := range b.files {
		out = append(out, f)
	}
	slices.SortFunc(out, func(x, y LocalFile) int { return strings.Compare(x.Path, y.Path) })
	return out
}

// CurrentRev is the latest local revision (0 before any host write).
func (m *LocalStore) CurrentRev(backend string) int64 { return m.backend(backend).currentRev }

// LocalChanges returns the pending changes in (after, through] in cursor
// order, at most limit of them (limit <= 0: all).
func (m *LocalStore) LocalChanges(backend string, after, through scheduler.Cursor, limit int) []LocalChange {
	var out []LocalChange
	m.EachLocalChange(backend, after, through, func(c LocalChange) bool {
		if limit > 0 && len(out) == limit {
			return false
		}
		out = append(out, c)
		return true
	})
	return out
}

// EachLocalChange calls fn with the pending changes in (after, through] in
// cursor order until fn returns false: LocalChanges without building the
// list, for callers that compare or stop early.
func (m *LocalStore) EachLocalChange(backend string, after, through scheduler.Cursor, fn func(LocalChange) bool) {
	b := m.backend(backend)
	// byRev is in cursor order (one change per rev): skip to the first
	// change past after, or a push late in a long run reads them all.
	start, _ := slices.BinarySearchFunc(b.byRev, after, func(c pendingChange, after scheduler.Cursor) int {
		if after.Less(scheduler.Cursor{Rev: c.Rev, Path: c.Path, HasPath: true}) {
			return 1
		}
		return -1
	})
	for _, c := range b.byRev[start:] {
		cur := scheduler.Cursor{Rev: c.Rev, Path: c.Path, HasPath: true}
		if through.Less(cur) {
			return
		}
		if c.superseded || !after.Less(cur) {
			continue
		}
		if !fn(c.LocalChange) {
			return
		}
	}
}

// FetchCursor is the stored fetch cursor under the read rule: a stored
// rev 0 reads as the baseline, whatever path it carries.
func (m *LocalStore) FetchCursor(backend string) scheduler.Cursor {
	f := m.backend(backend).fetch
	if f.Rev == 0 {
		return scheduler.Cursor{}
	}
	return f
}

// WriteFetchCursor stores c.
func (m *LocalStore) WriteFetchCursor(backend string, c scheduler.Cursor) {
	m.backend(backend).fetch = plainCursor(c)
}

// WriteFetchCursorIfAhead stores c when it is ahead of the cursor as read,
// and reports whether it did.
func (m *LocalStore) WriteFetchCursorIfAhead(backend string, c scheduler.Cursor) bool {
	if !m.FetchCursor(backend).Less(c) {
		return false
	}
	m.WriteFetchCursor(backend, c)
	return true
}

// PushRev is the legacy scalar push watermark.
func (m *LocalStore) PushRev(backend string) int64 { return m.backend(backend).pushRev }

// SetPushRev writes the scalar alone.
func (m *LocalStore) SetPushRev(backend string, rev int64) { m.backend(backend).pushRev = rev }

// PushCursor reads the push cursor: {pushRev,null} with no row or a scalar
// ahead of the row's rev, else the row.
func (m *LocalStore) PushCursor(backend string) scheduler.Cursor {
	b := m.backend(backend)
	if b.pushRow == nil || b.pushRev > b.pushRow.Rev {
		return scheduler.Cursor{Rev: b.pushRev}
	}
	return *b.pushRow
}

// WritePushCursor writes the row and the scalar together.
func (m *LocalStore) WritePushCursor(backend string, c scheduler.Cursor) {
	b := m.backend(backend)
	row := plainCursor(c)
	b.pushRow, b.pushRev = &row, c.Rev
}

// plainCursor drops a path HasPath says is absent.
func plainCursor(c scheduler.Cursor) scheduler.Cursor {
	if !c.HasPath {
		c.Path = ""
	}
	return c
}
