package sim

import "github.com/syncsim/syncsim/workspace"

// localListings holds, per backend, the local store's file listing taken
// during one between-steps check. host-write and the local-view properties
// both read the whole listing; nothing runs between them (no actor, no
// store call), so one listing per backend per check serves both with the
// same content a second call would return, and a long run does not pay
// for the copy and sort twice.
type localListings struct {
	files [][]workspace.File
	taken []bool
}

// reset forgets the listings: the next check lists again.
func (l *localListings) reset() { clear(l.taken) }

// localFiles returns backend b's files, listed at most once per check. The
// slice is shared by the check's readers, which must not modify it.
func (h *Host) localFiles(b int) ([]workspace.File, error) {
	l := &h.observed.listed
	for len(l.taken) <= b {
		l.files, l.taken = append(l.files, nil), append(l.taken, false)
	}
	if l.taken[b] {
		return l.files[b], nil
	}
	var fs []workspace.File
	var err error
	// Only the memory store itself: a plugged-in store that embeds one and
	// overrides Files must be listed through its own Files.
	if m, ok := h.stores.store.(*workspace.MemoryStore); ok {
		fs, err = m.FilesShared(h.backends.names[b])
	} else {
		fs, err = h.stores.store.Files(h.backends.names[b])
	}
	if err != nil {
		return nil, err
	}
	l.files[b], l.taken[b] = fs, true
	return fs, nil
}
