package workspace

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/syncsim/syncsim/scheduler/sqlitedb"
)

// SQLiteStore is a durable Store in one SQLite file (modernc.org/sqlite, pure
// Go). WAL journal and synchronous=FULL: a method's effect is on disk when it
// returns. Every method runs as one transaction, so a crash between two
// calls leaves exactly the first call's effect (SPEC 6.1 "written with both
// fields in one transaction"). A row that does not decode is reported as an
// error naming the backend; the store never panics on bad data.
type SQLiteStore struct {
	db   *sql.DB
	path string
}

var _ Store = (*SQLiteStore)(nil)

// sqliteStoreSchemaVersion is PRAGMA user_version of a current store file.
const sqliteStoreSchemaVersion = 1

// sqliteStoreSchemaV1 creates version 1. backends holds the scalar cursors
// (fetch_path NULL is the null path), push_cursors the path-aware push row,
// local_changes the coalesced local log (one row per path).
var sqliteStoreSchemaV1 = []string{
	`CREATE TABLE backends (
		backend     TEXT PRIMARY KEY,
		current_rev INTEGER NOT NULL,
		fetch_rev   INTEGER NOT NULL,
		fetch_path  TEXT,
		push_rev    INTEGER NOT NULL
	) STRICT`,
	`CREATE TABLE push_cursors (
		backend TEXT PRIMARY KEY,
		rev     INTEGER NOT NULL,
		path    TEXT
	) STRICT`,
	`CREATE TABLE files (
		backend TEXT NOT NULL,
		path    TEXT NOT NULL,
		content BLOB NOT NULL,
		rev     INTEGER NOT NULL,
		PRIMARY KEY (backend, path)
	) STRICT`,
	`CREATE TABLE local_changes (
		backend TEXT NOT NULL,
		path    TEXT NOT NULL,
		rev     INTEGER NOT NULL,
		deleted INTEGER NOT NULL,
		content BLOB,
		PRIMARY KEY (backend, path)
	) STRICT`,
	`CREATE INDEX local_changes_by_rev ON local_changes (backend, rev, path)`,
}

// OpenSQLiteStore opens (creating if needed) the store file at path. A file
// with a newer or unknown schema version is refused.
func OpenSQLiteStore(path string) (*SQLiteStore, error) {
	db, err := sqlitedb.Open(path)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	s := &SQLiteStore{db: db, path: path}
	if err := s.migrate(); err != nil {
		return nil, errors.Join(fmt.Errorf("store: open sqlite %s: %w", path, err), db.Close())
	}
	return s, nil
}

// Close releases the database; everything written stays on disk.
func (s *SQLiteStore) Close() error { return s.db.Close() }

func (s *SQLiteStore) migrate() error {
	return s.tx(func(tx *sql.Tx) error {
		var v int64
		if err := tx.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil {
			return err
		}
		switch v {
		case sqliteStoreSchemaVersion:
			return nil
		case 0:
		default:
			return fmt.Errorf("unsupported store schema version %d (want %d)", v, sqliteStoreSchemaVersion)
		}
		var tables int
		if err := tx.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table'`).Scan(&tables); err != nil {
			return err
		}
		if tables != 0 {
			return fmt.Errorf("file holds %d tables but no store schema version", tables)
		}
		for _, stmt := range sqliteStoreSchemaV1 {
			if _, err := tx.Exec(stmt); err != nil {
				return err
			}
		}
		_, err := tx.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, sqliteStoreSchemaVersion))
		return err
	})
}

// tx runs fn in one transaction and commits it if fn succeeds.
func (s *SQLiteStore) tx(fn func(*sql.Tx) error) (err error) {
	tx, err := s.db.BeginTx(context.Background(), nil)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, ignoreTxDone(tx.Rollback()))
		}
	}()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

func ignoreTxDone(err error) error {
	if errors.Is(err, sql.ErrTxDone) {
		return nil
	}
	return err
}

// backendTx runs fn in one transaction and labels any error with backend.
func (s *SQLiteStore) backendTx(backend, op string, fn func(*sql.Tx) error) error {
	if err := s.tx(fn); err != nil {
		return fmt.Errorf("store: backend %q: %s: %w", backend, op, err)
	}
	return nil
}

// scalars are one row of backends.
type sqliteScalars struct {
	currentRev int64
	fetch      Cursor
	pushRev    int64
}

// readScalars reads backend's scalar row; a missing row reads as fresh.
func readScalars(tx *sql.Tx, backend string) (sqliteScalars, error) {
	var (
		sc        sqliteScalars
		fetchPath sql.NullString
	)
	err := tx.QueryRow(`SELECT current_rev, fetch_rev, fetch_path, push_rev FROM backends WHERE backend = ?`, backend).
		Scan(&sc.currentRev, &sc.fetch.Rev, &fetchPath, &sc.pushRev)
	if errors.Is(err, sql.ErrNoRows) {
		return sqliteScalars{}, nil
	}
	if err != nil {
		return sqliteScalars{}, fmt.Errorf("corrupt backends row: %w", err)
	}
	sc.fetch.Path, sc.fetch.HasPath = fetchPath.String, fetchPath.Valid
	for _, r := range []struct {
		name string
		v    int64
	}{{"current_rev", sc.currentRev}, {"fetch_rev", sc.fetch.Rev}, {"push_rev", sc.pushRev}} {
		if r.v < 0 || r.v > maxSafeInteger {
			return sqliteScalars{}, fmt.Errorf("corrupt backends row: %s %d out of range", r.name, r.v)
		}
	}
	return sc, nil
}

// ensureBackend creates backend's scalar row if it is missing.
func ensureBackend(tx *sql.Tx, backend string) error {
	_, err := tx.Exec(`INSERT INTO backends (backend, current_rev, fetch_rev, fetch_path, push_rev)
		VALUES (?, 0, 0, NULL, 0) ON CONFLICT (backend) DO NOTHING`, backend)
	return err
}

func nullPath(c Cursor) sql.NullString {
	return sql.NullString{String: c.Path, Valid: c.HasPath}
}

// WriteFile implements Store.
func (s *SQLiteStore) WriteFile(backend, path string, content []byte, deleted bool) (int64, error) {
	var rev int64
	err := s.backendTx(backend, "write file", func(tx *sql.Tx) error {
		sc, err := readScalars(tx, backend)
		if err != nil {
			return err
		}
		if sc.currentRev >= maxSafeInteger {
			return errors.New("local revision overflow")
		}
		rev = sc.currentRev + 1
		if err := ensureBackend(tx, backend); err != nil {
			return err
		}
		if _, err := tx.Exec(`UPDATE backends SET current_rev = ? WHERE backend = ?`, rev, backend); err != nil {
			return err
		}
		if deleted {
			if _, err := tx.Exec(`DELETE FROM files WHERE backend = ? AND path = ?`, backend, path); err != nil {
				return err
			}
		} else if _, err := tx.Exec(`INSERT INTO files (backend, path, content, rev) VALUES (?, ?, ?, ?)
			ON CONFLICT (backend, path) DO UPDATE SET content = excluded.content, rev = excluded.rev`,
			backend, path, copyContent(content), rev); err != nil {
			return err
		}
		_, err = tx.Exec(`INSERT INTO local_changes (backend, path, rev, deleted, content) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (backend, path) DO UPDATE SET rev = excluded.rev, deleted = excluded.deleted, content = excluded.content`,
			backend, path, rev, deleted, changeContent(deleted, content))
		return err
	})
	if err != nil {
		return 0, err
	}
	return rev, nil
}

// ApplyUpstream implements Store.
func (s *SQLiteStore) ApplyUpstream(backend string, changes []Change) (int, error) {
	applied := 0
	err := s.backendTx(backend, "apply upstream", func(tx *sql.Tx) error {
		applied = 0
		for _, c := range changes {
			var live []byte
			err := tx.QueryRow(`SELECT content FROM files WHERE backend = ? AND path = ?`, backend, c.Path).Scan(&live)
			found := err == nil
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("corrupt files row %q: %w", c.Path, err)
			}
			switch {
			case c.Deleted:
				applied++
				if !found {
					continue
				}
				if _, err := tx.Exec(`DELETE FROM files WHERE backend = ? AND path = ?`, backend, c.Path); err != nil {
					return err
				}
			case found && bytes.Equal(live, c.Content):
				continue // alreadyApplied
			default:
				applied++
				if _, err := tx.Exec(`INSERT INTO files (backend, path, content, rev) VALUES (?, ?, ?, ?)
					ON CONFLICT (backend, path) DO UPDATE SET content = excluded.content, rev = excluded.rev`,
					backend, c.Path, copyContent(c.Content), c.Rev); err != nil {
					return err
				}
			}
			if _, err := tx.Exec(`DELETE FROM local_changes WHERE backend = ? AND path = ?`, backend, c.Path); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return applied, nil
}

// Files implements Store.
func (s *SQLiteStore) Files(backend string) ([]File, error) {
	out := []File{}
	err := s.backendTx(backend, "files", func(tx *sql.Tx) error {
		out = out[:0]
		rows, err := tx.Query(`SELECT path, content, rev FROM files WHERE backend = ? ORDER BY path`, backend)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var f File
			if err := rows.Scan(&f.Path, &f.Content, &f.Rev); err != nil {
				return fmt.Errorf("corrupt files row: %w", err)
			}
			if f.Rev < 0 {
				return fmt.Errorf("corrupt files row %q: rev %d", f.Path, f.Rev)
			}
			f.Content = copyContent(f.Content)
			out = append(out, f)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CurrentRev implements Store.
func (s *SQLiteStore) CurrentRev(backend string) (int64, error) {
	var rev int64
	err := s.backendTx(backend, "current rev", func(tx *sql.Tx) error {
		sc, err := readScalars(tx, backend)
		rev = sc.currentRev
		return err
	})
	return rev, err
}

// LocalChanges implements Store.
func (s *SQLiteStore) LocalChanges(backend string, after, through Cursor, limit int) ([]Change, error) {
	var out []Change
	err := s.backendTx(backend, "local changes", func(tx *sql.Tx) error {
		out = nil
		// The rev bounds are inclusive; the path rules of SPEC 1.1 at the two
		// edge revs are applied in Go. ORDER BY path uses SQLite's BINARY
		// collation, which is Go's byte order.
		rows, err := tx.Query(`SELECT rev, path, deleted, content, content IS NULL FROM local_changes
			WHERE backend = ? AND rev >= ? AND rev <= ? ORDER BY rev, path`, backend, after.Rev, through.Rev)
		if err != nil {
			return err
		}
		defer rows.Close()
		l := effectiveLimit(limit)
		for len(out) < l && rows.Next() {
			var (
				c         Change
				deleted   int64
				content   []byte
				noContent bool
			)
			// NB: the driver scans a zero-length blob as nil, so NULL is asked
			// of SQLite rather than read off the slice.
			if err := rows.Scan(&c.Rev, &c.Path, &deleted, &content, &noContent); err != nil {
				return fmt.Errorf("corrupt local_changes row: %w", err)
			}
			switch {
			case deleted == 1:
				c.Deleted = true
			case deleted == 0 && !noContent:
				c.Content = copyContent(content)
			default:
				return fmt.Errorf("corrupt local_changes row %q: deleted=%d content null=%t", c.Path, deleted, noContent)
			}
			if inRange(c.Cursor(), after, through) {
				out = append(out, c)
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// FetchCursor implements Store.
func (s *SQLiteStore) FetchCursor(backend string) (Cursor, error) {
	var c Cursor
	err := s.backendTx(backend, "read fetch cursor", func(tx *sql.Tx) error {
		sc, err := readScalars(tx, backend)
		c = storeFetchCursor(sc.fetch.Rev, sc.fetch.Path, sc.fetch.HasPath)
		return err
	})
	return c, err
}

func writeFetch(tx *sql.Tx, backend string, c Cursor) error {
	if err := ensureBackend(tx, backend); err != nil {
		return err
	}
	_, err := tx.Exec(`UPDATE backends SET fetch_rev = ?, fetch_path = ? WHERE backend = ?`, c.Rev, nullPath(c), backend)
	return err
}

// WriteFetchCursor implements Store.
func (s *SQLiteStore) WriteFetchCursor(backend string, c Cursor) error {
	if err := checkCursorArg(backend, "fetch", c); err != nil {
		return err
	}
	return s.backendTx(backend, "write fetch cursor", func(tx *sql.Tx) error { return writeFetch(tx, backend, c) })
}

// WriteFetchCursorIfAhead implements Store.
func (s *SQLiteStore) WriteFetchCursorIfAhead(backend string, c Cursor) (bool, error) {
	if err := checkCursorArg(backend, "fetch", c); err != nil {
		return false, err
	}
	var wrote bool
	err := s.backendTx(backend, "write fetch cursor if ahead", func(tx *sql.Tx) error {
		wrote = false
		sc, err := readScalars(tx, backend)
		if err != nil {
			return err
		}
		if !storeFetchCursor(sc.fetch.Rev, sc.fetch.Path, sc.fetch.HasPath).Less(c) {
			return nil
		}
		wrote = true
		return writeFetch(tx, backend, c)
	})
	return wrote && err == nil, err
}

// PushRev implements Store.
func (s *SQLiteStore) PushRev(backend string) (int64, error) {
	var rev int64
	err := s.backendTx(backend, "read push rev", func(tx *sql.Tx) error {
		sc, err := readScalars(tx, backend)
		rev = sc.pushRev
		return err
	})
	return rev, err
}

// SetPushRev implements Store.
func (s *SQLiteStore) SetPushRev(backend string, rev int64) error {
	if err := checkCursorArg(backend, "push", Cursor{Rev: rev}); err != nil {
		return err
	}
	return s.backendTx(backend, "set push rev", func(tx *sql.Tx) error {
		if err := ensureBackend(tx, backend); err != nil {
			return err
		}
		_, err := tx.Exec(`UPDATE backends SET push_rev = ? WHERE backend = ?`, rev, backend)
		return err
	})
}

// PushCursor implements Store.
func (s *SQLiteStore) PushCursor(backend string) (Cursor, error) {
	var c Cursor
	err := s.backendTx(backend, "read push cursor", func(tx *sql.Tx) error {
		sc, err := readScalars(tx, backend)
		if err != nil {
			return err
		}
		var (
			row  Cursor
			path sql.NullString
		)
		err = tx.QueryRow(`SELECT rev, path FROM push_cursors WHERE backend = ?`, backend).Scan(&row.Rev, &path)
		if errors.Is(err, sql.ErrNoRows) {
			c = storePushCursor(sc.pushRev, nil)
			return nil
		}
		if err != nil {
			return fmt.Errorf("corrupt push_cursors row: %w", err)
		}
		if row.Rev < 0 || row.Rev > maxSafeInteger {
			return fmt.Errorf("corrupt push_cursors row: rev %d out of range", row.Rev)
		}
		row.Path, row.HasPath = path.String, path.Valid
		c = storePushCursor(sc.pushRev, &row)
		return nil
	})
	return c, err
}

// WritePushCursor implements Store.
func (s *SQLiteStore) WritePushCursor(backend string, c Cursor) error {
	if err := checkCursorArg(backend, "push", c); err != nil {
		return err
	}
	return s.backendTx(backend, "write push cursor", func(tx *sql.Tx) error {
		if err := ensureBackend(tx, backend); err != nil {
			return err
		}
		if _, err := tx.Exec(`UPDATE backends SET push_rev = ? WHERE backend = ?`, c.Rev, backend); err != nil {
			return err
		}
		_, err := tx.Exec(`INSERT INTO push_cursors (backend, rev, path) VALUES (?, ?, ?)
			ON CONFLICT (backend) DO UPDATE SET rev = excluded.rev, path = excluded.path`, backend, c.Rev, nullPath(c))
		return err
	})
}
