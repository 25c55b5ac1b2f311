// Package sqlitedb opens the SQLite files of syncsim's durable stores — the
// scheduler's intent store and the workspace's local store — with the one
// set of settings both rely on for durability. It exists so the two cannot
// drift apart: a store that forgot synchronous=FULL would lose acknowledged
// writes on power loss, and only the settings differ between "durable" and
// "not".
//
// The driver is modernc.org/sqlite (pure Go, no cgo), registered as
// "sqlite".
//
// Open returns a DB: one connection for the store's calls, with each
// statement compiled on it once (stmts.go).
package sqlitedb

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	sqlite "modernc.org/sqlite" // also registers the "sqlite" driver for database/sql
)

// BusyTimeout bounds how long a statement waits for another connection's
// write lock before failing with SQLITE_BUSY. Writes are short, so a long
// wait means something is wrong; five seconds is generous.
const BusyTimeout = 5 * time.Second

// Open opens (creating if needed) the database at path with:
//
//   - journal_mode=WAL: readers never block the writer;
//   - synchronous=FULL: a committed transaction survives power loss;
//   - busy_timeout: see BusyTimeout;
//   - BEGIN IMMEDIATE for transactions (DB.Write, and _txlock for any
//     transaction the driver begins): a write transaction takes the write
//     lock up front, so it never has to upgrade a read lock (which fails
//     with SQLITE_BUSY at once, ignoring the busy timeout).
//
// Paths containing '?' or '#' are refused: the driver splits its DSN there,
// and refusing beats opening a different file than the caller named.
func Open(path string) (*DB, error) {
	if path == "" || strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("sqlite path %q must be non-empty and contain no '?' or '#'", path)
	}
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(BusyTimeout.Milliseconds()))
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "FULL")
	q.Set("_txlock", "immediate")
	c, err := (&sqlite.Driver{}).Open(path + "?" + q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	dc, ok := c.(conn)
	if !ok {
		return nil, errors.Join(fmt.Errorf("open sqlite %s: driver connection %T lacks the context methods", path, c), c.Close())
	}
	return &DB{conn: dc, stmts: map[string]stmt{}}, nil
}
