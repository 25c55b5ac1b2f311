package sqlitedb

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync"
)

// DB is one open store file. A store's calls run on one connection the DB
// holds from Open to Close, one call at a time (Autocommit, Write), with
// every statement compiled on that connection once and kept: a store's
// call is a few microseconds of work, and compiling its SQL again at every
// call, or opening a connection for it, cost more than running it.
//
// One connection serves every goroutine of the process in turn. SQLite
// runs one writer at a time anyway, and a read here is a single statement
// of microseconds; other processes still read and write the file beside
// it, under SQLite's own locking.
//
// The connection is the driver's own (database/sql/driver), not a
// database/sql pool: with one connection and statements kept, the pool's
// bookkeeping around every statement (connection grabs, statement
// registries, a second copy of every blob scanned) was a tenth of a
// store's call.
//
// A kept statement never runs stale SQL: SQLite compiles it again by
// itself when the schema changes under it (sqlite3_prepare_v2), another
// connection's change included.
type DB struct {
	mu    sync.Mutex // held for a whole call: the connection's one user
	conn  conn
	stmts map[string]stmt
}

// conn is what the store needs of a driver connection; modernc's has it.
type conn interface {
	driver.Conn
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
}

// stmt is what the store needs of a driver statement; modernc's has it.
type stmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

// Close releases the store's connection; what was committed stays in the
// file.
func (d *DB) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	// Every statement first: SQLite does not close a connection that
	// still has one.
	var errs []error
	for q, st := range d.stmts {
		errs = append(errs, st.Close())
		delete(d.stmts, q)
	}
	errs = append(errs, d.conn.Close())
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

// Exec runs one statement on its own, outside any store call and without
// keeping it: for tests and tools that reach behind a store.
func (d *DB) Exec(query string, args ...any) (Result, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return Runner{ctx: context.Background(), db: d, once: true}.Exec(query, args...)
}

// QueryRow is Exec for a statement that returns at most one row.
func (d *DB) QueryRow(query string, args ...any) *Row {
	d.mu.Lock()
	defer d.mu.Unlock()
	return Runner{ctx: context.Background(), db: d, once: true}.QueryRow(query, args...)
}

// stmt returns query compiled on the store's connection, compiling it on
// first use. The caller holds d.mu.
func (d *DB) stmt(ctx context.Context, query string) (stmt, error) {
	if st, ok := d.stmts[query]; ok {
		return st, nil
	}
	ds, err := d.conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	st, ok := ds.(stmt)
	if !ok {
		ds.Close() //nolint:errcheck // refused below
		return nil, fmt.Errorf("sqlite driver statement %T lacks the context methods", ds)
	}
	d.stmts[query] = st
	return st, nil
}

// Runner runs statements on the store's connection, inside Autocommit or
// Write, with the context given there. Its methods mirror database/sql's.
type Runner struct {
	ctx context.Context
	db  *DB
	// once: statements are compiled for one use (Migrate)
	once bool
}

// Result is what a statement that returns no rows reports.
type Result = driver.Result

// Exec runs a statement that returns no rows.
func (r Runner) Exec(query string, args ...any) (Result, error) {
	named, err := namedArgs(args)
	if err != nil {
		return nil, err
	}
	if r.once {
		return r.db.conn.ExecContext(r.ctx, query, named)
	}
	st, err := r.db.stmt(r.ctx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(r.ctx, named)
}

// Query runs a statement that returns rows. The caller closes them before
// its Autocommit or Write returns.
func (r Runner) Query(query string, args ...any) (*Rows, error) {
	named, err := namedArgs(args)
	if err != nil {
		return nil, err
	}
	var rows driver.Rows
	if r.once {
		rows, err = r.db.conn.QueryContext(r.ctx, query, named)
	} else {
		var st stmt
		if st, err = r.db.stmt(r.ctx, query); err == nil {
			rows, err = st.QueryContext(r.ctx, named)
		}
	}
	if err != nil {
		return nil, err
	}
	return newRows(rows), nil
}

// QueryRow runs a statement that returns at most one row; its error, if
// any, comes out of Row.Scan.
func (r Runner) QueryRow(query string, args ...any) *Row {
	rows, err := r.Query(query, args...)
	if err != nil {
		return &Row{err: err}
	}
	return readRow(rows)
}

// namedArgs converts args as database/sql does for a driver without a
// converter of its own (int to int64, a driver.Valuer such as
// sql.NullString to its value), numbered from 1.
func namedArgs(args []any) ([]driver.NamedValue, error) {
	if len(args) == 0 {
		return nil, nil
	}
	named := make([]driver.NamedValue, len(args))
	for i, a := range args {
		v, err := driver.DefaultParameterConverter.ConvertValue(a)
		if err != nil {
			return nil, fmt.Errorf("argument %d: %w", i+1, err)
		}
		named[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	return named, nil
}
