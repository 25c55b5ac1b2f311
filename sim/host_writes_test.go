package sim

import (
	"slices"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/workspace"
)

// hidesOldHostWrites lists every file except the first host write it was
// given once later writes came: a store that loses a write it acknowledged
// long ago, the case host-write's amortised listing must still catch.
type hidesOldHostWrites struct {
	*workspace.MemoryStore
	first  string
	writes int
}

func (s *hidesOldHostWrites) WriteFile(b, path string, content []byte, deleted bool) (int64, error) {
	if b != "b0" { // the store probe's own backend
		return s.MemoryStore.WriteFile(b, path, content, deleted)
	}
	if s.first == "" {
		s.first = path
	}
	s.writes++
	return s.MemoryStore.WriteFile(b, path, content, deleted)
}

func (s *hidesOldHostWrites) Files(b string) ([]workspace.File, error) {
	fs, err := s.MemoryStore.Files(b)
	if b != "b0" || s.writes < 20 {
		return fs, err
	}
	return slices.DeleteFunc(fs, func(f workspace.File) bool { return f.Path == s.first }), err
}

// TestHostWriteCatchesALateLoss: host-write lists the store only now and
// then (once the writes since the last listing are an eighth of all), yet a
// write lost after many others is reported by the tail at the latest.
func TestHostWriteCatchesALateLoss(t *testing.T) {
	store := &hidesOldHostWrites{MemoryStore: workspace.NewMemoryStore()}
	h, err := NewHost(judged(Config{Seed: 1, Backends: 1, Profile: faults.Off(),
		LocalStore: func(string) (workspace.Store, error) { return store, nil }}))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	var v *Violation
	for i := 0; i < 40 && v == nil; i++ {
		h.SpawnWrite(0)
		v = h.Step()
	}
	if v == nil {
		v = h.Liveness()
	}
	if v == nil || (v.Property != "host-write" && v.Property != "local-store") {
		t.Fatalf("a host write lost after 20 others: got %v, want host-write (or local-store, which may see the listing first)", v)
	}
	t.Log(v)
}
