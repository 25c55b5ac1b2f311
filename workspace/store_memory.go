package workspace

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
)

// MemoryStore is an in-memory Store. It holds only durable state (files,
// change logs, cursors), so a simulator can keep one instance across
// simulated host restarts and treat it as the host's disk: every method is
// atomic under one mutex, so a restart between two calls leaves exactly the
// effect of the calls that returned.
//
// The zero value is not usable; call NewMemoryStore.
type MemoryStore struct {
	mu  sync.Mutex
	nss map[string]*memNamespace
}

var _ Store = (*MemoryStore)(nil)

// memNamespace is one backend's durable state (SPEC 6.1).
type memNamespace struct {
	currentRev int64
	// files holds the live files in path order, kept on every change, so
	// that Files need not sort a listing that grows with the run.
	files []File
	// log is the coalesced local change log: one entry per path at its
	// latest host-side state, deletes included.
	log map[string]Change
	// order holds every change WriteFile logged, in revision order, so
	// that LocalChanges reads the range a push asks for instead of the
	// whole log: a push reads the few changes past its cursor, and the
	// log grows with the run. An entry is live while log still holds it
	// (same path, same rev); stale ones are dropped once they outnumber
	// the live ones.
	order []Change
	// fetch is stored raw (fetchRev + path column); storeFetchCursor applies
	// the read rule.
	fetch   Cursor
	pushRev int64
	pushRow *Cursor
}

// NewMemoryStore returns an empty store.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{nss: map[string]*memNamespace{}}
}

// ns returns backend's namespace, creating it on first use. Callers hold mu.
func (s *MemoryStore) ns(backend string) *memNamespace {
	n := s.nss[backend]
	if n == nil {
		n = &memNamespace{log: map[string]Change{}}
		s.nss[backend] = n
	}
	return n
}

// WriteFile implements Store.
func (s *MemoryStore) WriteFile(backend, path string, content []byte, deleted bool) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.ns(backend)
	if n.currentRev >= maxSafeInteger {
		return 0, fmt.Errorf("store: backend %q: local revision overflow", backend)
	}
	n.currentRev++
	rev := n.currentRev
	if deleted {
		n.remove(path)
	} else {
		n.put(File{Path: path, Content: copyContent(content), Rev: rev})
	}
	n.log[path] = Change{Rev: rev, Path: path, Deleted: deleted, Content: changeContent(deleted, content)}
	n.order = append(n.order, n.log[path])
	if len(n.order) > 2*len(n.log)+16 {
		n.order = slices.DeleteFunc(n.order, func(c Change) bool { return !n.live(c) })
	}
	return rev, nil
}

// live reports whether c, an entry of order, is still path's logged change.
func (n *memNamespace) live(c Change) bool {
	cur, ok := n.log[c.Path]
	return ok && cur.Rev == c.Rev
}

// ApplyUpstream implements Store.
func (s *MemoryStore) ApplyUpstream(backend string, changes []Change) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.ns(backend)
	applied := 0
	for _, c := range changes {
		live, ok := n.file(c.Path)
		switch {
		case c.Deleted:
			// SPEC 6.7: a delete is always applied and always counts; a
			// missing path is fine and changes nothing.
			applied++
			if ok {
				n.remove(c.Path)
				delete(n.log, c.Path)
			}
		case ok && bytes.Equal(live.Content, c.Content):
			// alreadyApplied: not counted, nothing changes.
		default:
			applied++
			n.put(File{Path: c.Path, Content: copyContent(c.Content), Rev: c.Rev})
			delete(n.log, c.Path)
		}
	}
	return applied, nil
}

// Files implements Store.
func (s *MemoryStore) Files(backend string) ([]File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.ns(backend)
	size := 0
	for _, f := range n.files {
		size += len(f.Content)
	}
	// One buffer holds every copy (capped slices of it, so an append to
	// one cannot reach the next): a listing costs two allocations.
	buf := make([]byte, 0, size)
	out := append(make([]File, 0, len(n.files)), n.files...) // never nil
	for i := range out {
		start := len(buf)
		buf = append(buf, out[i].Content...)
		out[i].Content = buf[start:len(buf):len(buf)]
	}
	return out, nil
}

// FilesShared is Files without the copy of every content: the listing
// shares each file's content with the store, and the caller must not
// modify one. The store never changes a content it holds in place (a write
// or an apply stores a fresh copy), so the listing stays what it was
// whatever the store does next. For readers that look at every file often
// — a test harness checking the store after every step, where copying
// megabytes of unchanged content per check dominated long runs.
func (s *MemoryStore) FilesShared(backend string) ([]File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append(make([]File, 0, len(s.ns(backend).files)), s.ns(backend).files...), nil // never nil
}

// find returns where path is or would be in files. Callers hold mu.
func (n *memNamespace) find(path string) (int, bool) {
	return slices.BinarySearchFunc(n.files, path, func(f File, p string) int { return strings.Compare(f.Path, p) })
}

// file returns path's live file. Callers hold mu.
func (n *memNamespace) file(path string) (File, bool) {
	if i, ok := n.find(path); ok {
		return n.files[i], true
	}
	return File{}, false
}

// put stores f in path order. Callers hold mu.
func (n *memNamespace) put(f File) {
	if i, ok := n.find(f.Path); ok {
		n.files[i] = f
	} else {
		n.files = slices.Insert(n.files, i, f)
	}
}

// remove deletes path's file, if any. Callers hold mu.
func (n *memNamespace) remove(path string) {
	if i, ok := n.find(path); ok {
		n.files = slices.Delete(n.files, i, i+1)
	}
}

// CurrentRev implements Store.
func (s *MemoryStore) CurrentRev(backend string) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ns(backend).currentRev, nil
}

// LocalChanges implements Store.
func (s *MemoryStore) LocalChanges(backend string, after, through Cursor, limit int) ([]Change, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.ns(backend)
	// order is sorted by cursor (one change per rev), so the range starts
	// at the first change past after and ends at the first past through.
	start := sort.Search(len(n.order), func(i int) bool { return after.Less(n.order[i].Cursor()) })
	l := effectiveLimit(limit)
	// Sized for the whole range up to the limit: a push reads a batch's
	// worth on every batch, and growing the list by doubling cost more
	// than the reading.
	out := make([]Change, 0, min(l, len(n.order)-start))
	for _, c := range n.order[start:] {
		if len(out) == l || through.Less(c.Cursor()) {
			break
		}
		if inRange(c.Cursor(), after, through) && n.live(c) {
			c.Content = changeContent(c.Deleted, c.Content)
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, nil // as before the list was sized: none is nil
	}
	return out, nil
}

// FetchCursor implements Store.
func (s *MemoryStore) FetchCursor(backend string) (Cursor, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.ns(backend).fetch
	return storeFetchCursor(f.Rev, f.Path, f.HasPath), nil
}

// WriteFetchCursor implements Store.
func (s *MemoryStore) WriteFetchCursor(backend string, c Cursor) error {
	if err := checkCursorArg(backend, "fetch", c); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ns(backend).fetch = normalizeCursor(c)
	return nil
}

// WriteFetchCursorIfAhead implements Store.
func (s *MemoryStore) WriteFetchCursorIfAhead(backend string, c Cursor) (bool, error) {
	if err := checkCursorArg(backend, "fetch", c); err != nil {
		return false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.ns(backend)
	if !storeFetchCursor(n.fetch.Rev, n.fetch.Path, n.fetch.HasPath).Less(c) {
		return false, nil
	}
	n.fetch = normalizeCursor(c)
	return true, nil
}

// PushRev implements Store.
func (s *MemoryStore) PushRev(backend string) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ns(backend).pushRev, nil
}

// SetPushRev implements Store.
func (s *MemoryStore) SetPushRev(backend string, rev int64) error {
	if err := checkCursorArg(backend, "push", Cursor{Rev: rev}); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ns(backend).pushRev = rev
	return nil
}

// PushCursor implements Store.
func (s *MemoryStore) PushCursor(backend string) (Cursor, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.ns(backend)
	return storePushCursor(n.pushRev, n.pushRow), nil
}

// WritePushCursor implements Store.
func (s *MemoryStore) WritePushCursor(backend string, c Cursor) error {
	if err := checkCursorArg(backend, "push", c); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.ns(backend)
	row := normalizeCursor(c)
	n.pushRow = &row
	n.pushRev = c.Rev
	return nil
}
