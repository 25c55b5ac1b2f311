package workspace

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/syncsim/syncsim/scheduler/sqlitedb"
)

// SQLiteStore is a durable Store in one SQLite file (modernc.org/sqlite, pure
// Go). WAL journal and synchronous=FULL: a method's effect is on disk when it
// returns. Every write runs as one transaction, so a crash between two
// calls leaves exactly the first call's effect (SPEC 6.1 "written with both
// fields in one transaction"); every read is one statement, which SQLite
// answers from one snapshot without a write lock. A row that does not
// decode is reported as an error naming the backend; the store never
// panics on bad data. Each statement is compiled once per open store
// (sqlitedb.DB).
type SQLiteStore struct {
	db   *sqlitedb.DB
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

// migrate brings the file to sqliteStoreSchemaVersion. A file already there
// (every open but the first) is told by its version alone, read without a
// write lock; anything else is decided again inside one write transaction,
// so two processes opening a fresh file at once cannot both create the
// tables.
func (s *SQLiteStore) migrate() error {
	ctx := context.Background()
	var v int64
	err := s.db.Autocommit(ctx, func(r sqlitedb.Runner) error { return r.QueryRow(`PRAGMA user_version`).Scan(&v) })
	if err != nil || v == sqliteStoreSchemaVersion {
		return err
	}
	return s.db.Migrate(ctx, func(tx sqlitedb.Runner) error {
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

// write runs fn in one write transaction and labels any error with backend.
func (s *SQLiteStore) write(backend, op string, fn func(tx sqlitedb.Runner) error) error {
	if err := s.db.Write(context.Background(), fn); err != nil {
		return storeErr(backend, op, err)
	}
	return nil
}

// read runs fn, whose reads are one statement each (one snapshot each),
// and labels any error with backend.
func (s *SQLiteStore) read(backend, op string, fn func(r sqlitedb.Runner) error) error {
	if err := s.db.Autocommit(context.Background(), fn); err != nil {
		return storeErr(backend, op, err)
	}
	return nil
}

// storeErr labels err with backend and the operation.
func storeErr(backend, op string, err error) error {
	return fmt.Errorf("store: backend %q: %s: %w", backend, op, err)
}

// scalars are one row of backends.
type sqliteScalars struct {
	currentRev int64
	fetch      Cursor
	pushRev    int64
}

const selectScalars = `SELECT current_rev, fetch_rev, fetch_path, push_rev FROM backends WHERE backend = ?`

// readScalars reads backend's scalar row on its own; op labels an error.
func (s *SQLiteStore) readScalars(backend, op string) (sc sqliteScalars, err error) {
	err = s.read(backend, op, func(r sqlitedb.Runner) error {
		sc, err = readScalars(r, backend)
		return err
	})
	return sc, err
}

// readScalars reads backend's scalar row; a missing row reads as fresh.
func readScalars(r sqlitedb.Runner, backend string) (sqliteScalars, error) {
	var (
		sc        sqliteScalars
		fetchPath sql.NullString
	)
	err := r.QueryRow(selectScalars, backend).Scan(&sc.currentRev, &sc.fetch.Rev, &fetchPath, &sc.pushRev)
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

// The scalar writes create backend's row when it is missing, in the one
// statement that sets the column.
const (
	upsertCurrentRev = `INSERT INTO backends (backend, current_rev, fetch_rev, fetch_path, push_rev)
		VALUES (?, ?, 0, NULL, 0) ON CONFLICT (backend) DO UPDATE SET current_rev = excluded.current_rev`
	upsertFetch = `INSERT INTO backends (backend, current_rev, fetch_rev, fetch_path, push_rev)
		VALUES (?, 0, ?, ?, 0) ON CONFLICT (backend) DO UPDATE SET fetch_rev = excluded.fetch_rev, fetch_path = excluded.fetch_path`
	upsertPushRev = `INSERT INTO backends (backend, current_rev, fetch_rev, fetch_path, push_rev)
		VALUES (?, 0, 0, NULL, ?) ON CONFLICT (backend) DO UPDATE SET push_rev = excluded.push_rev`
)

const (
	upsertFile = `INSERT INTO files (backend, path, content, rev) VALUES (?, ?, ?, ?)
		ON CONFLICT (backend, path) DO UPDATE SET content = excluded.content, rev = excluded.rev`
	deleteFile        = `DELETE FROM files WHERE backend = ? AND path = ?`
	deleteLocalChange = `DELETE FROM local_changes WHERE backend = ? AND path = ?`
)

func nullPath(c Cursor) sql.NullString {
	return sql.NullString{String: c.Path, Valid: c.HasPath}
}

// WriteFile implements Store.
func (s *SQLiteStore) WriteFile(backend, path string, content []byte, deleted bool) (int64, error) {
	var rev int64
	err := s.write(backend, "write file", func(tx sqlitedb.Runner) error {
		sc, err := readScalars(tx, backend)
		if err != nil {
			return err
		}
		if sc.currentRev >= maxSafeInteger {
			return errors.New("local revision overflow")
		}
		rev = sc.currentRev + 1
		if _, err := tx.Exec(upsertCurrentRev, backend, rev); err != nil {
			return err
		}
		if deleted {
			if _, err := tx.Exec(deleteFile, backend, path); err != nil {
				return err
			}
		} else if _, err := tx.Exec(upsertFile, backend, path, liveContent(content), rev); err != nil {
			return err
		}
		var logged []byte // a delete's content is NULL
		if !deleted {
			logged = liveContent(content)
		}
		_, err = tx.Exec(`INSERT INTO local_changes (backend, path, rev, deleted, content) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (backend, path) DO UPDATE SET rev = excluded.rev, deleted = excluded.deleted, content = excluded.content`,
			backend, path, rev, deleted, logged)
		return err
	})
	if err != nil {
		return 0, err
	}
	return rev, nil
}

// applyUpstreamFile writes an upstream entry's file unless the stored
// content already equals it (SPEC 6.7 alreadyApplied): SQLite compares the
// blobs, so the stored content never has to be read out.
const applyUpstreamFile = `INSERT INTO files (backend, path, content, rev) VALUES (?, ?, ?, ?)
	ON CONFLICT (backend, path) DO UPDATE SET content = excluded.content, rev = excluded.rev
	WHERE content IS NOT excluded.content`

// ApplyUpstream implements Store.
func (s *SQLiteStore) ApplyUpstream(backend string, changes []Change) (int, error) {
	applied := 0
	err := s.write(backend, "apply upstream", func(tx sqlitedb.Runner) error {
		applied = 0
		for _, c := range changes {
			var (
				res sql.Result
				err error
			)
			if c.Deleted {
				applied++ // a delete counts whether or not the file was there
				res, err = tx.Exec(deleteFile, backend, c.Path)
			} else {
				res, err = tx.Exec(applyUpstreamFile, backend, c.Path, liveContent(c.Content), c.Rev)
			}
			if err != nil {
				return err
			}
			changed, err := res.RowsAffected()
			if err != nil {
				return err
			}
			if changed == 0 {
				continue // nothing to delete, or alreadyApplied: the local change stays
			}
			if !c.Deleted {
				applied++
			}
			if _, err := tx.Exec(deleteLocalChange, backend, c.Path); err != nil {
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

// liveContent is a live file's content as the files table holds it: never
// NULL, so an empty content is an empty blob. The driver copies what it
// binds, so the caller's slice is not kept.
func liveContent(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// Files implements Store.
func (s *SQLiteStore) Files(backend string) ([]File, error) {
	var out []File
	err := s.read(backend, "files", func(r sqlitedb.Runner) (err error) {
		out, err = readFiles(r, backend)
		return err
	})
	return out, err
}

func readFiles(r sqlitedb.Runner, backend string) ([]File, error) {
	rows, err := r.Query(`SELECT path, content, rev FROM files WHERE backend = ? ORDER BY path`, backend)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []File{}
	for rows.Next() {
		var (
			f       File
			content []byte
		)
		if err := rows.Scan(&f.Path, &content, &f.Rev); err != nil {
			return nil, fmt.Errorf("corrupt files row: %w", err)
		}
		if f.Rev < 0 {
			return nil, fmt.Errorf("corrupt files row %q: rev %d", f.Path, f.Rev)
		}
		f.Content = handOut(content)
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// handOut returns a scanned blob as the caller's own content. sqlitedb
// hands out the driver's own copy of a blob, which nothing touches again
// (TestSQLiteStoreHandsOutItsOwnContents pins that for a driver upgrade);
// the driver scans an empty blob as nil, and a live content is never nil.
func handOut(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// CurrentRev implements Store.
func (s *SQLiteStore) CurrentRev(backend string) (int64, error) {
	sc, err := s.readScalars(backend, "current rev")
	return sc.currentRev, err
}

// LocalChanges implements Store.
func (s *SQLiteStore) LocalChanges(backend string, after, through Cursor, limit int) ([]Change, error) {
	var out []Change
	err := s.read(backend, "local changes", func(r sqlitedb.Runner) (err error) {
		out, err = readLocalChanges(r, backend, after, through, limit)
		return err
	})
	return out, err
}

func readLocalChanges(r sqlitedb.Runner, backend string, after, through Cursor, limit int) ([]Change, error) {
	// The rev bounds are inclusive; the path rules of SPEC 1.1 at the two
	// edge revs are applied in Go. ORDER BY path uses SQLite's BINARY
	// collation, which is Go's byte order.
	rows, err := r.Query(`SELECT rev, path, deleted, content, content IS NULL FROM local_changes
		WHERE backend = ? AND rev >= ? AND rev <= ? ORDER BY rev, path`, backend, after.Rev, through.Rev)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Change
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
			return nil, fmt.Errorf("corrupt local_changes row: %w", err)
		}
		switch {
		case deleted == 1:
			c.Deleted = true
		case deleted == 0 && !noContent:
			c.Content = handOut(content)
		default:
			return nil, fmt.Errorf("corrupt local_changes row %q: deleted=%d content null=%t", c.Path, deleted, noContent)
		}
		if inRange(c.Cursor(), after, through) {
			out = append(out, c)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// FetchCursor implements Store.
func (s *SQLiteStore) FetchCursor(backend string) (Cursor, error) {
	sc, err := s.readScalars(backend, "read fetch cursor")
	return storeFetchCursor(sc.fetch.Rev, sc.fetch.Path, sc.fetch.HasPath), err
}

func writeFetch(tx sqlitedb.Runner, backend string, c Cursor) error {
	_, err := tx.Exec(upsertFetch, backend, c.Rev, nullPath(c))
	return err
}

// WriteFetchCursor implements Store.
func (s *SQLiteStore) WriteFetchCursor(backend string, c Cursor) error {
	if err := checkCursorArg(backend, "fetch", c); err != nil {
		return err
	}
	return s.write(backend, "write fetch cursor", func(tx sqlitedb.Runner) error { return writeFetch(tx, backend, c) })
}

// WriteFetchCursorIfAhead implements Store.
func (s *SQLiteStore) WriteFetchCursorIfAhead(backend string, c Cursor) (bool, error) {
	if err := checkCursorArg(backend, "fetch", c); err != nil {
		return false, err
	}
	var wrote bool
	err := s.write(backend, "write fetch cursor if ahead", func(tx sqlitedb.Runner) error {
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
	sc, err := s.readScalars(backend, "read push rev")
	return sc.pushRev, err
}

// SetPushRev implements Store.
func (s *SQLiteStore) SetPushRev(backend string, rev int64) error {
	if err := checkCursorArg(backend, "push", Cursor{Rev: rev}); err != nil {
		return err
	}
	return s.write(backend, "set push rev", func(tx sqlitedb.Runner) error {
		_, err := tx.Exec(upsertPushRev, backend, rev)
		return err
	})
}

// PushCursor implements Store.
func (s *SQLiteStore) PushCursor(backend string) (Cursor, error) {
	var c Cursor
	err := s.read(backend, "read push cursor", func(r sqlitedb.Runner) (err error) {
		c, err = readPushCursor(r, backend)
		return err
	})
	return c, err
}

// readPushCursor reads the scalar and the path-aware row in one statement
// (one snapshot): the key row k always yields one row, NULL where backend
// has no scalar row or no push row.
func readPushCursor(r sqlitedb.Runner, backend string) (Cursor, error) {
	var (
		pushRev, rev sql.NullInt64
		path         sql.NullString
	)
	err := r.QueryRow(`SELECT b.push_rev, p.rev, p.path FROM (SELECT ? AS backend) AS k
		LEFT JOIN backends AS b ON b.backend = k.backend
		LEFT JOIN push_cursors AS p ON p.backend = k.backend`, backend).Scan(&pushRev, &rev, &path)
	if err != nil {
		return Cursor{}, fmt.Errorf("corrupt push cursor rows: %w", err)
	}
	if pushRev.Int64 < 0 || pushRev.Int64 > maxSafeInteger {
		return Cursor{}, fmt.Errorf("corrupt backends row: push_rev %d out of range", pushRev.Int64)
	}
	if !rev.Valid {
		return storePushCursor(pushRev.Int64, nil), nil
	}
	row := Cursor{Rev: rev.Int64}
	if row.Rev < 0 || row.Rev > maxSafeInteger {
		return Cursor{}, fmt.Errorf("corrupt push_cursors row: rev %d out of range", row.Rev)
	}
	row.Path, row.HasPath = path.String, path.Valid
	return storePushCursor(pushRev.Int64, &row), nil
}

// WritePushCursor implements Store.
func (s *SQLiteStore) WritePushCursor(backend string, c Cursor) error {
	if err := checkCursorArg(backend, "push", c); err != nil {
		return err
	}
	return s.write(backend, "write push cursor", func(tx sqlitedb.Runner) error {
		if _, err := tx.Exec(upsertPushRev, backend, c.Rev); err != nil {
			return err
		}
		_, err := tx.Exec(`INSERT INTO push_cursors (backend, rev, path) VALUES (?, ?, ?)
			ON CONFLICT (backend) DO UPDATE SET rev = excluded.rev, path = excluded.path`, backend, c.Rev, nullPath(c))
		return err
	})
}
