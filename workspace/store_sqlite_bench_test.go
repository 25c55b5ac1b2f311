package workspace

import (
	"path/filepath"
	"testing"
)

// The SQLite store's per-call cost, each call its own transaction as the
// harness and the workspace make them: a point read, a cursor write, a
// listing of a backend's files, and a host start (open, first reads, close).

func benchStore(b *testing.B) *SQLiteStore {
	st, err := OpenSQLiteStore(filepath.Join(b.TempDir(), "store.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	for i, p := range []string{"/a", "/b", "/c"} {
		if _, err := st.WriteFile("b0", p, make([]byte, 100*(i+1)), false); err != nil {
			b.Fatal(err)
		}
	}
	if err := st.WriteFetchCursor("b0", at(3)); err != nil {
		b.Fatal(err)
	}
	return st
}

func BenchmarkSQLiteStoreFetchCursor(b *testing.B) {
	st := benchStore(b)
	for b.Loop() {
		if _, err := st.FetchCursor("b0"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSQLiteStorePushCursor(b *testing.B) {
	st := benchStore(b)
	for b.Loop() {
		if _, err := st.PushCursor("b0"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSQLiteStoreFiles(b *testing.B) {
	st := benchStore(b)
	for b.Loop() {
		if _, err := st.Files("b0"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSQLiteStoreWriteFetchCursorIfAhead(b *testing.B) {
	st := benchStore(b)
	rev := int64(3)
	for b.Loop() {
		rev++
		if _, err := st.WriteFetchCursorIfAhead("b0", at(rev)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSQLiteStoreReopen is what a host start costs the store: open,
// the reads a start makes, close.
func BenchmarkSQLiteStoreReopen(b *testing.B) {
	path := benchStore(b).path
	for b.Loop() {
		st, err := OpenSQLiteStore(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := st.FetchCursor("b0"); err != nil {
			b.Fatal(err)
		}
		if _, err := st.Files("b0"); err != nil {
			b.Fatal(err)
		}
		if err := st.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
