package sqlitedb

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// The settings durability depends on are in force on a fresh connection.
func TestOpenSettings(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for pragma, want := range map[string]string{"journal_mode": "wal", "synchronous": "2", "busy_timeout": "5000"} {
		var got string
		if err := db.QueryRow("PRAGMA " + pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("PRAGMA %s = %s, want %s", pragma, got, want)
		}
	}
}

func TestOpenRefusesAmbiguousPaths(t *testing.T) {
	for _, p := range []string{"", "a?b.db", "a#b.db"} {
		if db, err := Open(p); err == nil {
			db.Close()
			t.Errorf("Open(%q) succeeded", p)
		}
	}
}

// Close releases the file even after kept statements ran on it: SQLite
// closes a connection only once its statements are finalized, and the last
// connection's close checkpoints the WAL and deletes it. A -wal file left
// behind is a connection (and its descriptors) leaked for the process's
// life.
func TestCloseReleasesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	err = db.Write(ctx, func(r Runner) error {
		if _, err := r.Exec(`CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)`); err != nil {
			return err
		}
		_, err := r.Exec(`INSERT INTO t VALUES (?, ?)`, "a", 1)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var v int
	if err := db.Autocommit(ctx, func(r Runner) error { return r.QueryRow(`SELECT v FROM t WHERE k = ?`, "a").Scan(&v) }); err != nil || v != 1 {
		t.Fatalf("read back: %d, %v", v, err)
	}
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Fatalf("no WAL while open: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("WAL still there after Close (%v): the connection was not closed", err)
	}
}

// Write is one transaction: an error from fn leaves nothing of what it did,
// and the write lock is taken at BEGIN, before fn's first statement, so a
// transaction that reads before it writes never has to upgrade a read lock.
func TestWriteIsOneImmediateTransaction(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.Exec(`CREATE TABLE t (k TEXT PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	other, err := sql.Open("sqlite", path+"?_busy_timeout=0")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()

	planted := errors.New("planted")
	err = db.Write(ctx, func(r Runner) error {
		var n int
		if err := r.QueryRow(`SELECT count(*) FROM t`).Scan(&n); err != nil {
			return err
		}
		// Only a read so far, yet another writer must already be shut out.
		if _, err := other.Exec(`INSERT INTO t VALUES ('other')`); err == nil {
			t.Error("another connection wrote inside Write's transaction: BEGIN did not take the write lock")
		}
		if _, err := r.Exec(`INSERT INTO t VALUES ('mine')`); err != nil {
			return err
		}
		return planted
	})
	if !errors.Is(err, planted) {
		t.Fatalf("Write returned %v, want fn's error", err)
	}
	var n int
	if err := other.QueryRow(`SELECT count(*) FROM t`).Scan(&n); err != nil || n != 0 {
		t.Errorf("after a failed Write the table holds %d rows (%v), want 0", n, err)
	}
	// The connection is usable again: the transaction ended.
	if err := db.Write(ctx, func(r Runner) error { _, err := r.Exec(`INSERT INTO t VALUES ('mine')`); return err }); err != nil {
		t.Fatalf("Write after a rolled-back one: %v", err)
	}
	if err := other.QueryRow(`SELECT count(*) FROM t`).Scan(&n); err != nil || n != 1 {
		t.Errorf("after a committed Write the table holds %d rows (%v), want 1", n, err)
	}
}
