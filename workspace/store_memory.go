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
	log map[string]*loggedChange
	// order holds every change WriteFile logged, in revision order, so
	// that LocalChanges reads the range a push asks for instead of the
	// whole log: a push reads the few changes past its cursor, and the
	// log grows with the run. An entry is live until a later write of its
	// path or an upstream change supersedes it (its stale flag, so a read
	// skips it without a lookup by path); stale ones are dropped once they
	// outnumber the live ones.
	order []*loggedChange
	// fetch is stored raw (fetchRev + path column); storeFetchCursor applies
	// the read rule.
	fetch   Cursor
	pushRev int64
	pushRow *Cursor
}

// loggedChange is one entry of a namespace's change log.
type loggedChange struct {
	Change
	stale bool // superseded: no longer its path's logged change
}

// NewMemoryStore returns an empty store.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{nss: map[string]*memNamespace{}}
}

// ns returns backend's namespace, creating it on first use. Callers hold mu.
func (s *MemoryStore) ns(backend string) *memNamespace {
	n := s.nss[backend]
	if n == nil {
		n = &memNamespace{log: map[string]*loggedChange{}}
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
	// One private copy serves the file and its logged change: neither is
	// ever written in place (Files hands out copies; FilesShared and
	// LocalChanges share contents read-only), and a run's big files would
	// otherwise sit in the store twice.
	stored := changeContent(deleted, content)
	if deleted {
		n.remove(path)
	} else {
		n.put(File{Path: path, Content: stored, Rev: rev})
	}
	n.unlog(path)
	c := &loggedChange{Change: Change{Rev: rev, Path: path, Deleted: deleted, Content: stored}}
	n.log[path] = c
	n.order = append(n.order, c)
	if len(n.order) > 2*len(n.log)+16 {
		n.order = slices.DeleteFunc(n.order, func(c *loggedChange) bool { return c.stale })
	}
	return rev, nil
}

// unlog drops path's logged change, if any, marking it stale in order.
func (n *memNamespace) unlog(path string) {
	if c := n.log[path]; c != nil {
		c.stale = true
		delete(n.log, path)
	}
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
				n.unlog(c.Path)
			}
		case ok && bytes.Equal(live.Content, c.Content):
			// alreadyApplied: not counted, nothing changes.
		default:
			applied++
			n.put(File{Path: c.Path, Content: copyContent(c.Content), Rev: c.Rev})
			n.unlog(c.Path)
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

// LocalChanges implements Store. The changes share their contents with the
// store, which never changes a content in place (a write logs a fresh
// copy): a push reads its whole batch on every attempt, megabytes when a
// big write is pending, and copied it all each time only to send it.
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
		if !c.stale && inRange(c.Cursor(), after, through) {
			out = append(out, c.Change) // the content shared: see Store.LocalChanges
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
