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

// throughExclusive leaves out a pending change that sits exactly on the
// window's upper bound: a workspace never asks for such a window (its push
// target is {rev,null}, after every path of rev), so only the host's store
// probe (sim/host_storeprobe.go) meets it.
type throughExclusive struct{ *workspace.MemoryStore }

func (s throughExclusive) LocalChanges(backend string, after, through workspace.Cursor, limit int) ([]workspace.Change, error) {
	cs, err := s.MemoryStore.LocalChanges(backend, after, through, 0)
	out := cs[:0]
	for _, c := range cs {
		if c.Cursor() != through && (limit <= 0 || len(out) < limit) {
			out = append(out, c)
		}
	}
	return out, err
}

func TestLocalStoreContract(t *testing.T) {
	for _, tc := range []struct {
		name, call string
		open       func() workspace.Store
	}{
		{"apply-counts-every-entry", "local store apply-upstream ", func() workspace.Store { return appliesCountEveryEntry{workspace.NewMemoryStore()} }},
		// Caught at the read (fetch-cursor) or at the next conditional
		// write, whose comparison the lost path changes.
		{"fetch-cursor-loses-path", "fetch-cursor", func() workspace.Store { return fetchCursorLosesPath{workspace.NewMemoryStore()} }},
		{"rev-starts-at-zero", "local store write-file ", func() workspace.Store { return revStartsAtZero{workspace.NewMemoryStore()} }},
		{"window-excludes-its-end", "local store local-changes syncsim-store-probe", func() workspace.Store { return throughExclusive{workspace.NewMemoryStore()} }},
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
