package scheduler_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syncsim/syncsim/scheduler"
)

// openTemp opens a fresh store in t.TempDir and closes it at cleanup.
func openTemp(t *testing.T) (*scheduler.SQLite, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sched.db")
	s, err := scheduler.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

// rawExec runs statements on the file behind the store's back, with CHECK
// constraints off, the way a foreign tool or a bad migration could.
func rawExec(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, s := range append([]string{"PRAGMA ignore_check_constraints = ON"}, stmts...) {
		if _, err := conn.ExecContext(context.Background(), s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

const insertRow = `INSERT INTO scheduler_intents (backend, attempt, not_before, runtime_id, target_rev, target_has_path, target_path) VALUES `

func TestSQLiteCorruptRows(t *testing.T) {
	cases := []struct {
		name, values, wantBackend, wantText string
	}{
		{"attempt text", `('x', 'three', 0, NULL, NULL, NULL, NULL)`, "x", "attempt is text three"},
		{"attempt real", `('x', 1.5, 0, NULL, NULL, NULL, NULL)`, "x", "attempt is real"},
		{"attempt null", `('x', NULL, 0, NULL, NULL, NULL, NULL)`, "x", "attempt is null"},
		{"not_before null", `('x', 1, NULL, NULL, NULL, NULL, NULL)`, "x", "not_before is null"},
		{"not_before text", `('x', 1, 'soon', NULL, NULL, NULL, NULL)`, "x", "not_before is text"},
		{"runtime blob", `('x', 1, 0, x'00ff', NULL, NULL, NULL)`, "x", "runtime_id is blob"},
		{"rev without path flag", `('x', 1, 0, NULL, 5, NULL, NULL)`, "x", "target_has_path is null"},
		{"path flag out of range", `('x', 1, 0, NULL, 5, 2, NULL)`, "x", "target_has_path is integer 2"},
		{"path flag set, path null", `('x', 1, 0, NULL, 5, 1, NULL)`, "x", "target_path is null"},
		{"path flag clear, path set", `('x', 1, 0, NULL, 5, 0, '/a')`, "x", "target_has_path is 0 but target_path is text"},
		{"path without rev", `('x', 1, 0, NULL, NULL, NULL, '/a')`, "x", "target_rev is null"},
		{"rev text", `('x', 1, 0, NULL, 'five', 0, NULL)`, "x", "target_rev is text"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, path := openTemp(t)
			ctx := context.Background()
			good := scheduler.Intent{Backend: "good", Attempt: 1, NotBefore: time.Unix(1, 0)}
			if err := s.Schedule(ctx, good); err != nil {
				t.Fatal(err)
			}
			rawExec(t, path, insertRow+tc.values)

			_, ok, err := s.Get(ctx, tc.wantBackend)
			checkCorrupt(t, "Get", err, tc.wantBackend, tc.wantText)
			if ok {
				t.Errorf("Get reported ok with a corrupt row")
			}
			list, err := s.List(ctx)
			checkCorrupt(t, "List", err, tc.wantBackend, tc.wantText)
			if list != nil {
				t.Errorf("List returned %d intents alongside the error; want none (no partial list)", len(list))
			}
			// The healthy row is still readable on its own.
			if got, ok, err := s.Get(ctx, "good"); err != nil || !ok || !got.Equal(good) {
				t.Errorf("Get(good) = %v, %v, %v", got, ok, err)
			}
			// Rewriting the backend through the store heals it.
			if err := s.Schedule(ctx, scheduler.Intent{Backend: tc.wantBackend, Attempt: 1, NotBefore: time.Unix(2, 0)}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.List(ctx); err != nil {
				t.Errorf("List after rewriting the corrupt row: %v", err)
			}
		})
	}
}

func checkCorrupt(t *testing.T, op string, err error, backend, text string) {
	t.Helper()
	switch {
	case err == nil:
		t.Errorf("%s: no error for a corrupt row", op)
	case !errors.Is(err, scheduler.ErrCorrupt):
		t.Errorf("%s: error %v does not wrap ErrCorrupt", op, err)
	case !strings.Contains(err.Error(), `scheduler: backend "`+backend+`": corrupt row: `):
		t.Errorf("%s: error %q does not name backend %q", op, err, backend)
	case !strings.Contains(err.Error(), text):
		t.Errorf("%s: error %q does not mention %q", op, err, text)
	}
}

// A foreign schema whose key compares case-insensitively makes Get("X")
// return the row stored for "x": the store must refuse, not hand back
// another backend's intent.
func TestSQLiteBackendMismatch(t *testing.T) {
	s, path := openTemp(t)
	rawExec(t, path,
		`DROP TABLE scheduler_intents`,
		`CREATE TABLE scheduler_intents (backend TEXT PRIMARY KEY COLLATE NOCASE, attempt, not_before, runtime_id, target_rev, target_has_path, target_path)`,
		insertRow+`('x', 1, 0, NULL, NULL, NULL, NULL)`)
	_, _, err := s.Get(context.Background(), "X")
	checkCorrupt(t, "Get", err, "X", `row holds backend "x"`)
}

func TestSQLiteBlobBackend(t *testing.T) {
	s, path := openTemp(t)
	rawExec(t, path, insertRow+`(x'78', 1, 0, NULL, NULL, NULL, NULL)`)
	_, err := s.List(context.Background())
	if !errors.Is(err, scheduler.ErrCorrupt) || !strings.Contains(err.Error(), "backend is blob") {
		t.Errorf("List with a blob backend: %v", err)
	}
}

func TestSQLiteSchemaVersion(t *testing.T) {
	_, path := openTemp(t)
	rawExec(t, path, `PRAGMA user_version = 2`)
	if s, err := scheduler.OpenSQLite(path); !errors.Is(err, scheduler.ErrSchemaVersion) {
		t.Errorf("OpenSQLite on a version-2 file: %v, want ErrSchemaVersion", err)
		if s != nil {
			s.Close()
		}
	}

	foreign := filepath.Join(t.TempDir(), "foreign.db")
	rawExec(t, foreign, `CREATE TABLE notes (body TEXT)`)
	if s, err := scheduler.OpenSQLite(foreign); !errors.Is(err, scheduler.ErrSchemaVersion) {
		t.Errorf("OpenSQLite on a foreign file: %v, want ErrSchemaVersion", err)
		if s != nil {
			s.Close()
		}
	}
}

func TestSQLitePragmas(t *testing.T) {
	_, path := openTemp(t)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var mode string
	if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal (persistent in the file)", mode, err)
	}
	var version int
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil || version != 1 {
		t.Errorf("user_version = %d, %v; want 1", version, err)
	}
}

func TestSQLiteRejectsUnrepresentableTime(t *testing.T) {
	s, _ := openTemp(t)
	for _, at := range []time.Time{{}, time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)} {
		err := s.Schedule(context.Background(), scheduler.Intent{Backend: "x", Attempt: 1, NotBefore: at})
		if err == nil || !strings.Contains(err.Error(), `backend "x"`) {
			t.Errorf("Schedule with NotBefore %v: %v, want an error naming the backend", at, err)
		}
	}
	if _, ok, err := s.Get(context.Background(), "x"); ok || err != nil {
		t.Errorf("a refused Schedule left ok=%v err=%v", ok, err)
	}
}

func TestOpenSQLiteBadPath(t *testing.T) {
	for _, p := range []string{"", "a?b.db"} {
		if s, err := scheduler.OpenSQLite(p); err == nil {
			s.Close()
			t.Errorf("OpenSQLite(%q) succeeded", p)
		}
	}
}
