package scenarios

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/workspace"
)

// Plugged-in local stores that break the store contract without ever
// returning an error: each answer is wrong, not refused. The harness replays
// every call that reached the store on model.LocalStore and must report
// local-store at the first wrong answer, naming the call.

// appliesCountEveryEntry reports every entry of an upstream batch as
// applied, alreadyApplied writes included (SPEC 6.7 says they do not count).
type appliesCountEveryEntry struct{ *workspace.MemoryStore }

func (s appliesCountEveryEntry) ApplyUpstream(backend string, changes []workspace.Change) (int, error) {
	if _, err := s.MemoryStore.ApplyUpstream(backend, changes); err != nil {
		return 0, err
	}
	return len(changes), nil
}

// fetchCursorLosesPath stores a fetch cursor without its path (a column
// forgotten in an UPDATE).
type fetchCursorLosesPath struct{ *workspace.MemoryStore }

func (s fetchCursorLosesPath) WriteFetchCursorIfAhead(backend string, c workspace.Cursor) (bool, error) {
	c.Path, c.HasPath = "", false
	return s.MemoryStore.WriteFetchCursorIfAhead(backend, c)
}

// revStartsAtZero stamps host writes from revision 0 (an off-by-one in a
// sequence), so the first write's revision is the "nothing written" value.
type revStartsAtZero struct{ *workspace.MemoryStore }

func (s revStartsAtZero) WriteFile(backend, path string, content []byte, deleted bool) (int64, error) {
	rev, err := s.MemoryStore.WriteFile(backend, path, content, deleted)
	return rev - 1, err
}

func TestLocalStoreContract(t *testing.T) {
	for _, tc := range []struct {
		name, call string
		open       func() workspace.Store
	}{
		{"apply-counts-every-entry", "local store apply-upstream b", func() workspace.Store { return appliesCountEveryEntry{workspace.NewMemoryStore()} }},
		{"fetch-cursor-loses-path", "local store write-fetch-cursor-if-ahead b", func() workspace.Store { return fetchCursorLosesPath{workspace.NewMemoryStore()} }},
		{"rev-starts-at-zero", "local store write-file b", func() workspace.Store { return revStartsAtZero{workspace.NewMemoryStore()} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for seed := uint64(1); seed <= 300; seed++ {
				v := runWithLocalStore(t, seed, tc.open())
				if v == nil {
					continue
				}
				if v.Property != "local-store" || !strings.Contains(v.Detail, tc.call) {
					t.Fatalf("seed %d broke %s, want local-store at %q: %v", seed, v.Property, tc.call, v)
				}
				t.Logf("seed %d: %v", seed, v)
				return
			}
			t.Fatal("a store breaking its contract went unnoticed in 300 seeds")
		})
	}
}
