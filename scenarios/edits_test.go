package scenarios

import (
	"bytes"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/workspace"
)

// The workload itself, with the host's store probes off, carries what a
// local store must get right beyond new files: commands rewrite and delete
// files the host already pulled and write paths that differ only in case
// (faults' `write ... rewrite= delete= twins`), and host writes rewrite
// paths they wrote before (sim.Host.SpawnWritesSized). Before either, each
// store below passed a whole Check once the probes were off: no run ever
// applied an upstream delete or replaced a file.

// keepsDeletedStore counts an upstream delete, as the contract says, and
// never removes the file.
type keepsDeletedStore struct{ *workspace.MemoryStore }

func (s keepsDeletedStore) ApplyUpstream(backend string, changes []workspace.Change) (int, error) {
	var kept []workspace.Change
	deletes := 0
	for _, c := range changes {
		if c.Deleted {
			deletes++
			continue
		}
		kept = append(kept, c)
	}
	n, err := s.MemoryStore.ApplyUpstream(backend, kept)
	return n + deletes, err
}

// firstVersionStore keeps the first content a path ever had: a later
// upstream write or host write of it is counted and acknowledged and
// changes nothing.
type firstVersionStore struct{ *workspace.MemoryStore }

// held returns the content backend's path holds.
func (s firstVersionStore) held(backend, path string) ([]byte, bool) {
	files, _ := s.MemoryStore.FilesShared(backend)
	for _, f := range files {
		if f.Path == path {
			return f.Content, true
		}
	}
	return nil, false
}

func (s firstVersionStore) ApplyUpstream(backend string, changes []workspace.Change) (int, error) {
	var fresh []workspace.Change
	kept := 0
	for _, c := range changes {
		if old, ok := s.held(backend, c.Path); ok && !c.Deleted {
			if !bytes.Equal(old, c.Content) {
				kept++ // counted as the contract says, and not written
			}
			continue
		}
		fresh = append(fresh, c)
	}
	n, err := s.MemoryStore.ApplyUpstream(backend, fresh)
	return n + kept, err
}

func (s firstVersionStore) WriteFile(backend, path string, content []byte, deleted bool) (int64, error) {
	if old, ok := s.held(backend, path); ok && !deleted {
		content = old // acknowledged with a fresh revision, content kept
	}
	return s.MemoryStore.WriteFile(backend, path, content, deleted)
}

func checkWithoutProbes(t *testing.T, what string, open func() workspace.Store, props ...string) {
	t.Helper()
	rec := &fatalRecorder{TB: t}
	Check(rec, SuiteOptions{noProbes: true, NewLocalStore: func() sim.StoreFactory {
		st := open()
		return func(string) (workspace.Store, error) { return st, nil }
	}})
	if len(rec.msgs) != 1 {
		t.Fatalf("%s, with the probes off: want one report, got %q", what, rec.msgs)
	}
	for _, p := range props {
		if strings.Contains(rec.msgs[0], "PROPERTY  "+p) {
			return
		}
	}
	t.Fatalf("%s, with the probes off: want a report of %v, got %q", what, props, rec.msgs[0])
}

func TestWorkloadCatchesAStoreKeepingDeletedFiles(t *testing.T) {
	checkWithoutProbes(t, "a local store counting upstream deletes and keeping the files",
		func() workspace.Store { return keepsDeletedStore{workspace.NewMemoryStore()} },
		"local-store", "fetched-applied", "liveness-files")
}

func TestWorkloadCatchesAStoreKeepingFirstVersions(t *testing.T) {
	checkWithoutProbes(t, "a local store keeping every path's first content",
		func() workspace.Store { return firstVersionStore{workspace.NewMemoryStore()} },
		"local-store", "fetched-applied", "host-write", "liveness-files", "liveness-push")
}

func TestWorkloadCatchesAStoreFoldingPathCase(t *testing.T) {
	checkWithoutProbes(t, "a local store folding path case",
		func() workspace.Store { return pathFoldingStore{workspace.NewMemoryStore()} },
		"local-store", "fetched-applied", "liveness-files")
}

// hostFirstVersionStore is firstVersionStore for host writes only: what
// only a host rewrite shows.
type hostFirstVersionStore struct{ firstVersionStore }

func (s hostFirstVersionStore) ApplyUpstream(backend string, changes []workspace.Change) (int, error) {
	return s.MemoryStore.ApplyUpstream(backend, changes)
}

func TestWorkloadCatchesAStoreKeepingFirstHostVersions(t *testing.T) {
	checkWithoutProbes(t, "a local store keeping the first content of every host write",
		func() workspace.Store { return hostFirstVersionStore{firstVersionStore{workspace.NewMemoryStore()}} },
		"local-store", "host-write", "liveness-files", "liveness-push")
}

// bufferReusingStore hands out one buffer per path and, when the path's
// content changes at the same length, copies the new content into it:
// whoever still holds the old content (a push's batch, a listing) now
// reads the new one. Its answers are right when given, so only the host's
// watch of handed-out contents (sim/host_localwatch.go), with host
// rewrites at the same size, shows it.
type bufferReusingStore struct {
	*workspace.MemoryStore
	bufs map[string][]byte
}

func (s bufferReusingStore) buffer(backend, path string, content []byte) []byte {
	k := backend + "\x00" + path
	if b := s.bufs[k]; b != nil && len(b) == len(content) {
		copy(b, content)
		return b
	}
	b := append([]byte(nil), content...)
	s.bufs[k] = b
	return b
}

func (s bufferReusingStore) LocalChanges(backend string, after, through workspace.Cursor, limit int) ([]workspace.Change, error) {
	cs, err := s.MemoryStore.LocalChanges(backend, after, through, limit)
	for i := range cs {
		if !cs[i].Deleted {
			cs[i].Content = s.buffer(backend, cs[i].Path, cs[i].Content)
		}
	}
	return cs, err
}

func (s bufferReusingStore) Files(backend string) ([]workspace.File, error) {
	fs, err := s.MemoryStore.Files(backend)
	for i := range fs {
		fs[i].Content = s.buffer(backend, fs[i].Path, fs[i].Content)
	}
	return fs, err
}

func TestWorkloadCatchesAStoreReusingHandedOutBuffers(t *testing.T) {
	checkWithoutProbes(t, "a local store reusing the buffer it handed out for a path",
		func() workspace.Store {
			return bufferReusingStore{workspace.NewMemoryStore(), map[string][]byte{}}
		},
		"local-store")
}
