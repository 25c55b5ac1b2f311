package sqlitedb

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// DB is one open store file. A store's calls run on one connection the DB
// holds from Open to Close, one call at a time (Autocommit, Write), with every
// statement compiled on that connection once and kept: a store's call is
// a few microseconds of work, and compiling its SQL again at every call,
// or opening a connection for it, cost more than running it.
//
// One connection serves every goroutine of the process in turn. SQLite
// runs one writer at a time anyway, and a read here is a single statement
// of microseconds; other processes still read and write the file beside
// it, under SQLite's own locking.
//
// The embedded *sql.DB is the pool behind that connection, for tests and
// tools that look at the file from outside the store's calls (a second
// connection, as another process would be).
//
// A kept statement never runs stale SQL: SQLite compiles it again by
// itself when the schema changes under it (sqlite3_prepare_v2), another
// connection's change included.
type DB struct {
	*sql.DB
	mu    sync.Mutex // held for a whole Read or Write: the connection's one user
	conn  *sql.Conn
	stmts map[string]*sql.Stmt
}

// Close releases the store's connection and the pool; what was committed
// stays in the file.
func (d *DB) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	// Every statement first: SQLite does not close a connection that
	// still has one, and database/sql leaves a Conn's statements to their
	// owner.
	var errs []error
	for q, st := range d.stmts {
		errs = append(errs, st.Close())
		delete(d.stmts, q)
	}
	errs = append(errs, d.conn.Close(), d.DB.Close())
	return errors.Join(errs...)
}

// Autocommit runs fn with the store's connection to itself. Each statement
// fn runs is a transaction of its own, as SQLite runs any statement outside
// BEGIN: a read that one statement answers sees one snapshot and takes no
// write lock; a write that one statement makes is atomic. fn must not keep
// r past its return.
func (d *DB) Autocommit(ctx context.Context, fn func(r Runner) error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return fn(Runner{ctx: ctx, db: d})
}

// Write runs fn in one write transaction, BEGIN IMMEDIATE (the write lock
// taken up front, see Open), and commits it if fn returns nil; otherwise,
// or if COMMIT fails, nothing fn did is kept. fn must not keep r past its
// return.
func (d *DB) Write(ctx context.Context, fn func(r Runner) error) error {
	return d.write(ctx, false, fn)
}

// Migrate is Write for statements run once per file (schema changes and
// checks): they are compiled for the one call and not kept.
func (d *DB) Migrate(ctx context.Context, fn func(r Runner) error) error {
	return d.write(ctx, true, fn)
}

func (d *DB) write(ctx context.Context, once bool, fn func(r Runner) error) (err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	r := Runner{ctx: ctx, db: d}
	if _, err := r.Exec(`BEGIN IMMEDIATE`); err != nil {
		return err
	}
	committing, committed := false, false
	defer func() {
		if committed {
			return
		}
		// It runs without ctx's end, which may be what ended fn: the
		// transaction must end either way.
		_, rb := Runner{ctx: context.WithoutCancel(ctx), db: d}.Exec(`ROLLBACK`)
		if rb != nil && !committing {
			// After a failed COMMIT, SQLite may have rolled back already,
			// and ROLLBACK then fails for want of a transaction: only
			// COMMIT's error is worth reporting.
			err = errors.Join(err, rb)
		}
	}()
	r.once = once
	if err := fn(r); err != nil {
		return err
	}
	r.once, committing = false, true
	if _, err := r.Exec(`COMMIT`); err != nil {
		return err
	}
	committed = true
	return nil
}

// stmt returns query compiled on the store's connection, compiling it on
// first use. The caller holds d.mu.
func (d *DB) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := d.stmts[query]; ok {
		return st, nil
	}
	st, err := d.conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	d.stmts[query] = st
	return st, nil
}

// Runner runs statements on the store's connection, inside Autocommit or
// Write. Its methods are database/sql's, with the context given there.
type Runner struct {
	ctx context.Context
	db  *DB
	// once: statements are compiled for one use (Migrate)
	once bool
}

// Exec runs a statement that returns no rows.
func (r Runner) Exec(query string, args ...any) (sql.Result, error) {
	if r.once {
		return r.db.conn.ExecContext(r.ctx, query, args...)
	}
	st, err := r.db.stmt(r.ctx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(r.ctx, args...)
}

// Query runs a statement that returns rows. The caller closes them before
// its Autocommit or Write returns.
func (r Runner) Query(query string, args ...any) (*sql.Rows, error) {
	if r.once {
		return r.db.conn.QueryContext(r.ctx, query, args...)
	}
	st, err := r.db.stmt(r.ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(r.ctx, args...)
}

// QueryRow runs a statement that returns at most one row. A statement
// that does not compile is run uncompiled, so that its error reaches the
// caller through Row.Scan, as database/sql reports it.
func (r Runner) QueryRow(query string, args ...any) *sql.Row {
	if r.once {
		return r.db.conn.QueryRowContext(r.ctx, query, args...)
	}
	st, err := r.db.stmt(r.ctx, query)
	if err != nil {
		return r.db.conn.QueryRowContext(r.ctx, query, args...)
	}
	return st.QueryRowContext(r.ctx, args...)
}
