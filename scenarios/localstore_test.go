package scenarios

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/workspace"
)

// With the SQLite local store, every host restart closes and reopens the
// file, and the host checks that files and cursors came back exactly.
func TestSQLiteLocalStoreSurvivesHostRestarts(t *testing.T) {
	restarts, failed := 0, 0
	for seed := uint64(1); seed <= 80; seed++ {
		c := DefaultConfig
		c.LocalStore = "sqlite"
		r := mustRun(t, FromSeed(seed, c))
		restarts += r.Stats.HostStarts - 1
		if r.Violation != nil {
			failed++
			t.Errorf("seed %d: %v", seed, r.Violation)
		}
	}
	if restarts == 0 {
		t.Fatal("no host restart in 80 seeds: the durability check never ran")
	}
	t.Logf("80 seeds, %d host restarts with the SQLite local store, %d failed", restarts, failed)
}

// A local store that forgets at a host restart is caught by the durability
// property (not only, later, by liveness).
func TestForgetfulLocalStoreIsCaught(t *testing.T) {
	forgetful := func(string) (workspace.Store, error) { return workspace.NewMemoryStore(), nil }
	for seed := uint64(1); seed <= 300; seed++ {
		s := FromSeed(seed, DefaultConfig)
		r, err := Run(s, RunOptions{LocalStore: forgetful})
		if err != nil {
			t.Fatal(err)
		}
		if r.Violation != nil && r.Violation.Property == "durability" {
			t.Logf("seed %d: %v", seed, r.Violation)
			return
		}
	}
	t.Fatal("a local store that forgets at host restart went unnoticed in 300 seeds")
}

// dropsHostWrites is a local store that acknowledges host-side writes and
// keeps none: without a property on acknowledged writes it passes, since
// the write is then missing on both sides of every local-remote comparison.
type dropsHostWrites struct{ workspace.Store }

func (dropsHostWrites) WriteFile(string, string, []byte, bool) (int64, error) { return 1, nil }

func TestLocalStoreDroppingHostWritesIsCaught(t *testing.T) {
	m := workspace.NewMemoryStore()
	dropping := func(string) (workspace.Store, error) { return dropsHostWrites{m}, nil }
	for seed := uint64(1); seed <= 300; seed++ {
		s := FromSeed(seed, DefaultConfig)
		r, err := Run(s, RunOptions{LocalStore: dropping})
		if err != nil {
			t.Fatal(err)
		}
		if r.Violation != nil {
			// The store probe (sim/host_storeprobe.go) usually sees it
			// first, at its own writes; host-write catches it in the
			// workspace's (sim/host_writes_test.go tests that alone).
			if p := r.Violation.Property; p != "host-write" && p != "local-store" {
				t.Fatalf("seed %d: caught as %s, want host-write or local-store: %v", seed, p, r.Violation)
			}
			t.Logf("seed %d: %v", seed, r.Violation)
			return
		}
	}
	t.Fatal("a local store that drops every host write went unnoticed in 300 seeds")
}

// aliasingLocalStore keeps the caller's content slices instead of copies (the
// memory store underneath keeps its own, but every read answers from the
// kept slices): correct for as long as no caller writes into a buffer it
// handed over, which the workspace and the host never do. The fault
// wrapper hands the store buffers of its own and poisons them after each
// call (faults/localalias.go), so the aliasing shows.
type aliasingLocalStore struct {
	workspace.Store
	kept map[[2]string][]byte
}

func (s aliasingLocalStore) WriteFile(backend, path string, content []byte, deleted bool) (int64, error) {
	rev, err := s.Store.WriteFile(backend, path, content, deleted)
	if err == nil {
		s.kept[[2]string{backend, path}] = content
	}
	return rev, err
}

func (s aliasingLocalStore) ApplyUpstream(backend string, changes []workspace.Change) (int, error) {
	n, err := s.Store.ApplyUpstream(backend, changes)
	if err == nil {
		for _, c := range changes {
			s.kept[[2]string{backend, c.Path}] = c.Content
		}
	}
	return n, err
}

func (s aliasingLocalStore) Files(backend string) ([]workspace.File, error) {
	fs, err := s.Store.Files(backend)
	for i, f := range fs {
		if k, ok := s.kept[[2]string{backend, f.Path}]; ok {
			fs[i].Content = k
		}
	}
	return fs, err
}

func TestLocalStoreAliasingItsCallersIsCaught(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		s := FromSeed(seed, DefaultConfig)
		r, err := Run(s, RunOptions{NewLocalStore: func() sim.StoreFactory {
			a := aliasingLocalStore{workspace.NewMemoryStore(), map[[2]string][]byte{}}
			return func(string) (workspace.Store, error) { return a, nil }
		}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Violation != nil {
			t.Logf("seed %d: %v", seed, r.Violation)
			return
		}
	}
	t.Fatal("a local store keeping its callers' content slices went unnoticed in 300 seeds")
}

// pathFoldingStore keys files by lower-cased path, as a store on a
// case-insensitive file system would. Both the store probe's paths and the
// twin paths some commands write (`write ... twins`) show it; with the
// probes off, TestWorkloadCatchesAStoreFoldingPathCase.
type pathFoldingStore struct{ workspace.Store }

func (s pathFoldingStore) WriteFile(backend, path string, content []byte, deleted bool) (int64, error) {
	return s.Store.WriteFile(backend, strings.ToLower(path), content, deleted)
}

func (s pathFoldingStore) ApplyUpstream(backend string, changes []workspace.Change) (int, error) {
	folded := make([]workspace.Change, len(changes))
	for i, c := range changes {
		c.Path = strings.ToLower(c.Path)
		folded[i] = c
	}
	return s.Store.ApplyUpstream(backend, folded)
}

func TestLocalStoreFoldingPathCaseIsCaught(t *testing.T) {
	rec := &fatalRecorder{TB: t}
	Check(rec, SuiteOptions{Seeds: 40, NewLocalStore: func() sim.StoreFactory {
		m := pathFoldingStore{workspace.NewMemoryStore()}
		return func(string) (workspace.Store, error) { return m, nil }
	}})
	if len(rec.msgs) != 1 || !strings.Contains(rec.msgs[0], "PROPERTY  local-store") {
		t.Fatalf("a local store folding path case: want one local-store report, got %q", rec.msgs)
	}
}

// journalStore is durable through a journal of its writes, replayed into a
// fresh memory store at every open, except that it journals no upstream
// delete (a dirty flag set by writes only). The store probe's deletes, on
// its own backend, show it when a host restart holds that backend to
// durability too; so do the deletes some commands make (`write ...
// delete=`), on a backend a restart finds holding the deleted file.
type journalStore struct {
	*workspace.MemoryStore
	journal *[]func(workspace.Store)
}

func (s journalStore) log(f func(workspace.Store)) { *s.journal = append(*s.journal, f) }

func (s journalStore) WriteFile(backend, path string, content []byte, deleted bool) (int64, error) {
	rev, err := s.MemoryStore.WriteFile(backend, path, content, deleted)
	if err == nil {
		c := append([]byte(nil), content...)
		s.log(func(st workspace.Store) { st.WriteFile(backend, path, c, deleted) })
	}
	return rev, err
}

func (s journalStore) ApplyUpstream(backend string, changes []workspace.Change) (int, error) {
	n, err := s.MemoryStore.ApplyUpstream(backend, changes)
	if err == nil {
		var kept []workspace.Change
		for _, c := range changes {
			if !c.Deleted {
				c.Content = append([]byte(nil), c.Content...)
				kept = append(kept, c)
			}
		}
		s.log(func(st workspace.Store) { st.ApplyUpstream(backend, kept) })
	}
	return n, err
}

func (s journalStore) WriteFetchCursor(backend string, c workspace.Cursor) error {
	s.log(func(st workspace.Store) { st.WriteFetchCursor(backend, c) })
	return s.MemoryStore.WriteFetchCursor(backend, c)
}

func (s journalStore) WriteFetchCursorIfAhead(backend string, c workspace.Cursor) (bool, error) {
	s.log(func(st workspace.Store) { st.WriteFetchCursorIfAhead(backend, c) })
	return s.MemoryStore.WriteFetchCursorIfAhead(backend, c)
}

func (s journalStore) SetPushRev(backend string, rev int64) error {
	s.log(func(st workspace.Store) { st.SetPushRev(backend, rev) })
	return s.MemoryStore.SetPushRev(backend, rev)
}

func (s journalStore) WritePushCursor(backend string, c workspace.Cursor) error {
	s.log(func(st workspace.Store) { st.WritePushCursor(backend, c) })
	return s.MemoryStore.WritePushCursor(backend, c)
}

func TestLocalStoreLosingUpstreamDeletesAtRestartIsCaught(t *testing.T) {
	rec := &fatalRecorder{TB: t}
	Check(rec, SuiteOptions{NewLocalStore: func() sim.StoreFactory {
		var journal []func(workspace.Store)
		return func(string) (workspace.Store, error) {
			st := journalStore{workspace.NewMemoryStore(), &journal}
			replay := journal
			journal = nil
			for _, f := range replay {
				f(st) // journals itself again
			}
			return st, nil
		}
	}})
	if len(rec.msgs) != 1 || !strings.Contains(rec.msgs[0], "PROPERTY  durability") {
		t.Fatalf("a local store losing upstream deletes at restart: want one durability report, got %q", rec.msgs)
	}
}
