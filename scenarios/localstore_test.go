package scenarios

import (
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
