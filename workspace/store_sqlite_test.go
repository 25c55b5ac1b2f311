package workspace

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// Corrupt rows are errors that name the backend, never panics or silent
// defaults.
func TestSQLiteStoreCorruptRows(t *testing.T) {
	for _, tc := range []struct {
		name    string
		corrupt string
		read    func(st *SQLiteStore) error
	}{
		{"negative fetch rev", `UPDATE backends SET fetch_rev = -3`, func(st *SQLiteStore) error {
			_, err := st.FetchCursor("sand box")
			return err
		}},
		{"negative current rev", `UPDATE backends SET current_rev = -1`, func(st *SQLiteStore) error {
			_, err := st.WriteFile("sand box", "/x", nil, false)
			return err
		}},
		{"negative push row rev", `UPDATE push_cursors SET rev = -9`, func(st *SQLiteStore) error {
			_, err := st.PushCursor("sand box")
			return err
		}},
		{"deleted flag out of range", `UPDATE local_changes SET deleted = 7`, func(st *SQLiteStore) error {
			_, err := st.LocalChanges("sand box", at(0), at(10), 0)
			return err
		}},
		{"live change without content", `UPDATE local_changes SET content = NULL`, func(st *SQLiteStore) error {
			_, err := st.LocalChanges("sand box", at(0), at(10), 0)
			return err
		}},
		{"negative file rev", `UPDATE files SET rev = -2`, func(st *SQLiteStore) error {
			_, err := st.Files("sand box")
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "store.db")
			st := mustOpenSQLite(t, path)
			_, err := st.WriteFile("sand box", "/a", []byte("a"), false)
			must(t, err)
			must(t, st.WritePushCursor("sand box", at(1)))
			must(t, st.WriteFetchCursor("sand box", at(1)))
			if _, err := st.db.Exec(tc.corrupt); err != nil {
				t.Fatal(err)
			}
			err = tc.read(st)
			if err == nil || !strings.Contains(err.Error(), `backend "sand box"`) {
				t.Fatalf("err = %v, want an error naming the backend", err)
			}
		})
	}
}

func TestSQLiteStoreSchemaVersion(t *testing.T) {
	dir := t.TempDir()
	newer := filepath.Join(dir, "newer.db")
	db, err := sql.Open("sqlite", newer)
	must(t, err)
	_, err = db.Exec(`PRAGMA user_version = 99`)
	must(t, err)
	must(t, db.Close())
	if _, err := OpenSQLiteStore(newer); err == nil || !strings.Contains(err.Error(), "schema version 99") {
		t.Errorf("newer schema: err = %v", err)
	}

	foreign := filepath.Join(dir, "foreign.db")
	db, err = sql.Open("sqlite", foreign)
	must(t, err)
	_, err = db.Exec(`CREATE TABLE other (x INTEGER)`)
	must(t, err)
	must(t, db.Close())
	if _, err := OpenSQLiteStore(foreign); err == nil {
		t.Error("a file with foreign tables was opened")
	}

	for _, bad := range []string{"", filepath.Join(dir, "a?b.db")} {
		if _, err := OpenSQLiteStore(bad); err == nil {
			t.Errorf("path %q accepted", bad)
		}
	}

	// Reopening a current file keeps its schema and data.
	cur := filepath.Join(dir, "cur.db")
	st := mustOpenSQLite(t, cur)
	_, err = st.WriteFile("b", "/a", []byte("a"), false)
	must(t, err)
	must(t, st.Close())
	st = mustOpenSQLite(t, cur)
	diff(t, "rev after reopen", int64(1), mustRev(t)(st.CurrentRev("b")))
	var mode string
	must(t, st.db.QueryRow(`PRAGMA journal_mode`).Scan(&mode))
	diff(t, "journal mode", "wal", mode)
}

// The sync driver runs unchanged on the durable store, including a host
// restart between two batches of a bounded pull.
func TestSQLiteStoreUnderSyncDriver(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.db")
	st := mustOpenSQLite(t, path)
	r := newFakeRemote()
	writeFiles(r, "/f%d", 5)
	b := Budget{MaxEntries: 2, MaxBytes: 1 << 20}
	first := mustPullBatch(t, st, r, nil, b)
	must(t, st.Close())
	st = mustOpenSQLite(t, path)
	diff(t, "cursor across restart", first.Cursor, mustFetchCursor(t, st))
	for range 3 {
		mustPullBatch(t, st, r, &first.TargetCursor, b)
	}
	diff(t, "cursor", first.TargetCursor, mustFetchCursor(t, st))
	if !sameFiles(r.files(), mustFiles(t, st)) {
		t.Errorf("files differ")
	}
}

// The SQLite store hands out the driver's own copy of each content (see
// handOut): a content it handed out must stay as it was through later
// reads of other rows and other calls, and through writes of the same
// paths. A driver that reused its buffers would fail here.
func TestSQLiteStoreHandsOutItsOwnContents(t *testing.T) {
	st := mustOpenSQLite(t, filepath.Join(t.TempDir(), "store.db"))
	want := map[string]string{"/a": "aaaa", "/b": "bbbbbbbb", "/c": "cc"}
	for _, p := range []string{"/a", "/b", "/c"} {
		_, err := st.WriteFile("b", p, []byte(want[p]), false)
		must(t, err)
	}
	files, err := st.Files("b")
	must(t, err)
	changes, err := st.LocalChanges("b", at(0), at(3), 0)
	must(t, err)
	for _, p := range []string{"/a", "/b", "/c"} {
		_, err := st.WriteFile("b", p, []byte("overwritten "+p), false)
		must(t, err)
	}
	_, err = st.Files("b")
	must(t, err)
	_, err = st.LocalChanges("b", at(0), at(6), 0)
	must(t, err)
	for _, f := range files {
		diff(t, "Files content of "+f.Path+" after later calls", want[f.Path], string(f.Content))
	}
	for _, c := range changes {
		diff(t, "LocalChanges content of "+c.Path+" after later calls", want[c.Path], string(c.Content))
	}
}
