package faults

import (
	"context"
	"io"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// changeStream is the lazily materialised change stream of one fetch
// (SPEC 6.2): entries with after < (rev, path) <= current, one per path at
// its latest state, ordered by (rev, path). Each Next reads the store as
// it is now, so a path rewritten after the snapshot has a live rev beyond
// current and is no longer served.
type changeStream struct {
	cn      *conn
	id      int
	after   scheduler.Cursor
	current scheduler.Cursor
	pos     scheduler.Cursor // last served entry, or after
	served  int
	failAt  int // fail instead of serving entry failAt (0-based); -1 never
	eof     bool
	closed  bool
}

var _ workspace.ChangeStream = (*changeStream)(nil)

// served reports whether f at path is a fetchable entry in (after, through].
// Pushed states are left out: the host wrote them (doc.go, "Pushed files").
func fetchable(f *remoteFile, path string, after, through scheduler.Cursor) bool {
	cur := scheduler.AtPath(f.rev, path)
	return !f.pushed && after.Less(cur) && !through.Less(cur)
}

// countLocked counts the entries fetchable in (after, through] now.
func (c *Container) countLocked(after, through scheduler.Cursor) int {
	n := 0
	for p, f := range c.files {
		if fetchable(f, p, after, through) {
			n++
		}
	}
	return n
}

// nextLocked returns the smallest fetchable entry in (after, through]; ok
// is false when there is none. Only the minimum leaves the map walk, so
// map order cannot reach the output.
func (c *Container) nextLocked(after, through scheduler.Cursor) (ch workspace.Change, ok bool) {
	var best scheduler.Cursor
	for p, f := range c.files {
		if !fetchable(f, p, after, through) {
			continue
		}
		cur := scheduler.AtPath(f.rev, p)
		if !ok || cur.Less(best) {
			best, ok = cur, true
			ch = workspace.Change{Rev: f.rev, Path: p, Deleted: f.deleted, Content: cloneBytes(f.content)}
		}
	}
	return ch, ok
}

// nextCall is the prologue of a stream's Next: it blocks, takes the lock
// (the caller unlocks, even on error) and starts the record entry. A stream
// the client closed, or one on a dead connection, fails there (recorded).
// served and closed are the stream's own fields, read under the lock.
func (cn *conn) nextCall(ctx context.Context, op Op, stream int, served *int, closed *bool) (Call, error) {
	actor := cn.c.enter(op)
	call := cn.call(actor, op)
	call.Stream, call.Entries = stream, *served
	err := ErrDisposed
	if !*closed {
		err = cn.usableLocked(ctx)
	}
	if err != nil {
		return call, cn.failLocked(call, err, NoFault)
	}
	return call, nil
}

// Next serves the next entry, io.EOF at the end, or the armed mid-stream
// failure (which breaks the connection).
func (st *changeStream) Next(ctx context.Context) (workspace.Change, error) {
	cn := st.cn
	c := cn.c
	call, err := cn.nextCall(ctx, OpStreamNext, st.id, &st.served, &st.closed)
	defer c.mu.Unlock()
	if err != nil {
		return workspace.Change{}, err
	}
	if st.eof {
		call.EOF = true
		c.appendLocked(call)
		return workspace.Change{}, io.EOF
	}
	if st.failAt == st.served {
		// NB: when entries vanished after the snapshot, failAt can exceed
		// what is left; the failure then replaces EOF below.
		st.failAt = -1
		return workspace.Change{}, cn.failLocked(call, injected(TransportMidStream, msgMidStream), TransportMidStream)
	}
	ch, ok := c.nextLocked(st.pos, st.current)
	if !ok {
		if st.failAt >= 0 {
			st.failAt = -1
			return workspace.Change{}, cn.failLocked(call, injected(TransportMidStream, msgMidStream), TransportMidStream)
		}
		st.eof = true
		call.EOF = true
		c.appendLocked(call)
		return workspace.Change{}, io.EOF
	}
	st.pos = ch.Cursor()
	st.served++
	call.Entry, call.Entries = scheduler.Ptr(st.pos), st.served
	c.appendLocked(call)
	return ch, nil
}

// Close cancels the stream; it may be called more than once.
func (st *changeStream) Close() error {
	c := st.cn.c
	actor := c.enter(OpStreamClose)
	defer c.mu.Unlock()
	call := st.cn.call(actor, OpStreamClose)
	call.Stream, call.Entries, call.EOF = st.id, st.served, st.eof
	st.closed = true
	c.appendLocked(call)
	return nil
}
