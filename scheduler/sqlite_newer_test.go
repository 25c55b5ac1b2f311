package scheduler_test

import (
	"database/sql"
	"errors"
	"path/filepath"
	"testing"

	"github.com/syncsim/syncsim/scheduler"
)

// TestSQLiteRefusesNewerEmptyFile: a file whose schema version is newer than
// this code's is refused up front even when it holds no table yet (newer
// code may have set the version first), and is left as it was: an older
// binary must never create its own table in it and write its own version
// back over the newer one.
func TestSQLiteRefusesNewerEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "newer.db")
	rawExec(t, path, `PRAGMA user_version = 7`)
	s, err := scheduler.OpenSQLite(path)
	if !errors.Is(err, scheduler.ErrSchemaVersion) {
		if s != nil {
			s.Close()
		}
		t.Fatalf("OpenSQLite on an empty version-7 file: %v, want ErrSchemaVersion", err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var version, tables int
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table'`).Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if version != 7 || tables != 0 {
		t.Fatalf("refused file changed: user_version %d (want 7), %d tables (want 0)", version, tables)
	}
}
