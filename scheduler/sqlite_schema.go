package scheduler

import (
	"context"
	"errors"
	"fmt"

	"github.com/syncsim/syncsim/scheduler/sqlitedb"
)

// schemaVersion is stored in PRAGMA user_version. Bump it, and add a step
// to migrate, whenever the table's meaning changes; a file with a larger
// number was written by newer code and is refused (ErrSchemaVersion).
const schemaVersion = 1

// ErrSchemaVersion classifies an OpenSQLite failure caused by a file whose
// schema this code does not know.
var ErrSchemaVersion = errors.New("unsupported scheduler schema version")

// The table keeps each optional field absent-or-present in its own
// nullable column: runtime_id NULL is "no runtime id" (distinct from the empty string),
// target_rev NULL is "unfenced", and target_has_path says whether the
// target's path is null (distinct from the path ""). not_before holds Unix
// nanoseconds, so NotBefore survives to the nanosecond.
//
// The CHECK constraints guard the write path; scanIntent re-checks every
// column on the read path, because a file can be edited by other tools (and
// the tests corrupt rows on purpose with ignore_check_constraints).
const createIntents = `CREATE TABLE scheduler_intents (
	backend         TEXT PRIMARY KEY CHECK (typeof(backend) = 'text'),
	attempt         INTEGER CHECK (typeof(attempt) = 'integer'),
	not_before      INTEGER CHECK (typeof(not_before) = 'integer'),
	runtime_id      TEXT CHECK (runtime_id IS NULL OR typeof(runtime_id) = 'text'),
	target_rev      INTEGER CHECK (target_rev IS NULL OR typeof(target_rev) = 'integer'),
	target_has_path INTEGER CHECK ((target_rev IS NULL AND target_has_path IS NULL)
	                            OR (target_rev IS NOT NULL AND target_has_path IN (0, 1))),
	target_path     TEXT CHECK ((target_has_path = 1 AND typeof(target_path) = 'text')
	                         OR (target_has_path IS NOT 1 AND target_path IS NULL))
)`

const selectIntents = `SELECT backend, attempt, not_before, runtime_id, target_rev, target_has_path, target_path FROM scheduler_intents`

const selectIntent = selectIntents + ` WHERE backend = ?`

const upsertIntent = `INSERT INTO scheduler_intents
	(backend, attempt, not_before, runtime_id, target_rev, target_has_path, target_path)
	VALUES (?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (backend) DO UPDATE SET
		attempt = excluded.attempt, not_before = excluded.not_before, runtime_id = excluded.runtime_id,
		target_rev = excluded.target_rev, target_has_path = excluded.target_has_path,
		target_path = excluded.target_path`

// migrate brings the file to schemaVersion. A file already there (every
// open but the first) is told by its version alone, read without a write
// lock; anything else is decided again inside one write transaction, so two
// processes opening a fresh file at once cannot both create the table.
func (s *SQLite) migrate(ctx context.Context) error {
	var version int
	err := s.db.Autocommit(ctx, func(r sqlitedb.Runner) error { return r.QueryRow(`PRAGMA user_version`).Scan(&version) })
	if err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if version == schemaVersion {
		return nil
	}
	return s.db.Migrate(ctx, func(tx sqlitedb.Runner) error {
		if err := tx.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
			return fmt.Errorf("read schema version: %w", err)
		}
		switch {
		case version == schemaVersion:
			return nil
		case version > schemaVersion || version < 0:
			return fmt.Errorf("%w: file has %d, this code knows up to %d", ErrSchemaVersion, version, schemaVersion)
		}
		// version 0: a new file, or somebody else's database.
		var tables int
		if err := tx.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table'`).Scan(&tables); err != nil {
			return fmt.Errorf("inspect schema: %w", err)
		}
		if tables != 0 {
			return fmt.Errorf("%w: version 0 with %d foreign tables; not a syncsim scheduler file", ErrSchemaVersion, tables)
		}
		if _, err := tx.Exec(createIntents); err != nil {
			return fmt.Errorf("create schema: %w", err)
		}
		if _, err := tx.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, schemaVersion)); err != nil {
			return fmt.Errorf("set schema version: %w", err)
		}
		return nil
	})
}
