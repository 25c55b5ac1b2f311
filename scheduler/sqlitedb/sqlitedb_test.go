package sqlitedb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
		var got any
		if err := db.QueryRow("PRAGMA " + pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != want {
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

// Scan converts only without loss: each destination takes its storage
// class, a sql.Scanner takes the value, NULL reaches a nullable one, and
// no row is sql.ErrNoRows.
func TestScanTakesOnlyItsOwnClass(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var (
		i    int64
		n    int
		b    bool
		s    string
		blob []byte
		ns   sql.NullString
		a    any
	)
	err = db.QueryRow(`SELECT 7, 8, 1, 'x', x'0102', NULL, 2.5`).Scan(&i, &n, &b, &s, &blob, &ns, &a)
	if err != nil || i != 7 || n != 8 || !b || s != "x" || string(blob) != "\x01\x02" || ns.Valid || a != 2.5 {
		t.Errorf("scan = %v %v %v %q %q %v %v, %v", i, n, b, s, blob, ns, a, err)
	}
	for _, tc := range []struct {
		query string
		dest  any
	}{
		{`SELECT '7'`, &i}, {`SELECT 2`, &b}, {`SELECT 7`, &s}, {`SELECT 'x'`, &blob}, {`SELECT NULL`, &i},
	} {
		if err := db.QueryRow(tc.query).Scan(tc.dest); err == nil {
			t.Errorf("%s scanned into %T without an error", tc.query, tc.dest)
		}
	}
	if err := db.QueryRow(`SELECT 1 WHERE 0`).Scan(&i); !errors.Is(err, sql.ErrNoRows) {
		t.Errorf("no row: %v, want sql.ErrNoRows", err)
	}
}
