package scheduler

import (
	"context"
	"errors"
	"fmt"

	"github.com/syncsim/syncsim/scheduler/sqlitedb"
)

// SQLite is a durable Scheduler and Lister backed by one SQLite file through
// modernc.org/sqlite (pure Go, no cgo). It is safe for concurrent use by many
// goroutines and, through SQLite's own locking, by several processes.
//
// Durability: WAL journal, synchronous=FULL (a commit is on disk when
// Schedule or Clear returns), and every write is a single statement, which
// SQLite runs as one transaction: a crash leaves either the old or the new
// intent, never a mix. Each statement is compiled once per open store
// (sqlitedb.DB), and a read takes no write lock.
type SQLite struct {
	db   *sqlitedb.DB
	path string
}

var (
	_ Scheduler = (*SQLite)(nil)
	_ Lister    = (*SQLite)(nil)
)

// OpenSQLite opens (creating if needed) the scheduler store at path and
// migrates it to the current schema. A file written by a newer syncsim, or
// one that holds somebody else's tables, is refused with an error rather
// than read with the wrong meaning. The durability settings (WAL,
// synchronous=FULL, BEGIN IMMEDIATE) are sqlitedb.Open's.
func OpenSQLite(path string) (*SQLite, error) {
	db, err := sqlitedb.Open(path)
	if err != nil {
		return nil, fmt.Errorf("scheduler: %w", err)
	}
	s := &SQLite{db: db, path: path}
	if err := s.migrate(context.Background()); err != nil {
		return nil, errors.Join(fmt.Errorf("scheduler: open sqlite %s: %w", path, err), db.Close())
	}
	return s, nil
}

// Close releases the database. Intents already written stay on disk.
func (s *SQLite) Close() error { return s.db.Close() }

// Get returns the intent stored for backend. A row that does not decode to
// a valid intent is an error naming the backend, never a silent miss.
func (s *SQLite) Get(ctx context.Context, backend string) (Intent, bool, error) {
	var (
		in    Intent
		found bool
	)
	err := s.db.Autocommit(ctx, func(r sqlitedb.Runner) error {
		rows, err := r.Query(selectIntent, backend)
		if err != nil {
			return fmt.Errorf("scheduler: backend %q: get: %w", backend, err)
		}
		defer rows.Close()
		for rows.Next() {
			if found {
				// The primary key forbids this; a foreign schema may not.
				return corrupt(backend, errors.New("more than one row"))
			}
			if in, err = scanIntent(rows); err != nil {
				return err
			}
			found = true
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("scheduler: backend %q: get: %w", backend, err)
		}
		return nil
	})
	if err != nil {
		return Intent{}, false, err
	}
	if found && in.Backend != backend {
		// Only a foreign collation or a hand-edited row can get here.
		return Intent{}, false, corrupt(backend, fmt.Errorf("row holds backend %q", in.Backend))
	}
	return in, found, nil
}

// Schedule upserts intent in one statement (one transaction).
func (s *SQLite) Schedule(ctx context.Context, intent Intent) error {
	row, err := encodeIntent(intent)
	if err != nil {
		return err
	}
	err = s.db.Autocommit(ctx, func(r sqlitedb.Runner) error {
		_, err := r.Exec(upsertIntent,
			row.backend, row.attempt, row.notBefore, row.runtimeID, row.targetRev, row.targetHasPath, row.targetPath)
		return err
	})
	if err != nil {
		return fmt.Errorf("scheduler: backend %q: schedule: %w", intent.Backend, err)
	}
	return nil
}

// Clear deletes the intent for backend; deleting nothing succeeds.
func (s *SQLite) Clear(ctx context.Context, backend string) error {
	err := s.db.Autocommit(ctx, func(r sqlitedb.Runner) error {
		_, err := r.Exec(`DELETE FROM scheduler_intents WHERE backend = ?`, backend)
		return err
	})
	if err != nil {
		return fmt.Errorf("scheduler: backend %q: clear: %w", backend, err)
	}
	return nil
}

// List returns every intent ordered by backend id (bytewise). One corrupt
// row fails the whole call: the host computes its alarm from this list, and
// an intent silently left out would be an intent never retried.
func (s *SQLite) List(ctx context.Context) ([]Intent, error) {
	var out []Intent
	err := s.db.Autocommit(ctx, func(r sqlitedb.Runner) error {
		rows, err := r.Query(selectIntents + ` ORDER BY backend COLLATE BINARY`)
		if err != nil {
			return fmt.Errorf("scheduler: list: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			in, err := scanIntent(rows)
			if err != nil {
				return err
			}
			out = append(out, in)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("scheduler: list: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
