package workspace

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLocalRevisionStopsAtTheSafeIntegerBound: a local revision is a
// JavaScript-safe integer (SPEC 6.4), so the write that would stamp
// maxSafeInteger+1 is refused, naming the backend, while the write that
// stamps the bound itself succeeds; the refusal changes nothing. No run
// reaches the bound, so only this test holds either store to it.
func TestLocalRevisionStopsAtTheSafeIntegerBound(t *testing.T) {
	const backend = "sand box"
	for _, tc := range []struct {
		name string
		// open returns a store whose backend's current revision is rev.
		open func(t *testing.T, rev int64) Store
	}{
		{"memory", func(_ *testing.T, rev int64) Store {
			st := NewMemoryStore()
			st.ns(backend).currentRev = rev
			return st
		}},
		{"sqlite", func(t *testing.T, rev int64) Store {
			st := mustOpenSQLite(t, filepath.Join(t.TempDir(), "store.db"))
			_, err := st.WriteFile(backend, "/seed", []byte("s"), false)
			must(t, err)
			if _, err := st.db.Exec(`UPDATE backends SET current_rev = ?`, rev); err != nil {
				t.Fatal(err)
			}
			return st
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := tc.open(t, maxSafeInteger-1)
			rev, err := st.WriteFile(backend, "/last", []byte("l"), false)
			must(t, err)
			if rev != maxSafeInteger {
				t.Fatalf("the write below the bound stamped rev %d, want %d", rev, int64(maxSafeInteger))
			}
			before := snapshotStore(t, st, backend)
			_, err = st.WriteFile(backend, "/over", []byte("o"), false)
			if err == nil || !strings.Contains(err.Error(), "overflow") || !strings.Contains(err.Error(), `"`+backend+`"`) {
				t.Fatalf("the write past the bound: err = %v, want a revision overflow naming the backend", err)
			}
			diff(t, "a refused write changes nothing", before, snapshotStore(t, st, backend))
		})
	}
}
