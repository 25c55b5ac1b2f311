package faults

import (
	"context"
	"io"
	"slices"

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
	arm     streamArm
	eof     bool
	closed  bool
}

var _ workspace.ChangeStream = (*changeStream)(nil)

// countLocked counts the entries fetchable in (after, through] now.
func (c *Container) countLocked(after, through scheduler.Cursor) int {
	n := 0
	for i := c.index.first(after); i < len(c.index.entries); i++ {
		cur := c.index.entries[i]
		if through.Less(cur) {
			break
		}
		if c.liveLocked(cur) {
			n++
		}
	}
	return n
}

// nextLocked returns the smallest fetchable entry in (after, through]; ok
// is false when there is none. It walks the index in cursor order from
// after, so the first live entry is the smallest, and map order never
// reaches the output.
func (c *Container) nextLocked(after, through scheduler.Cursor) (ch workspace.Change, ok bool) {
	for i := c.index.first(after); i < len(c.index.entries); i++ {
		cur := c.index.entries[i]
		if through.Less(cur) {
			break
		}
		if c.liveLocked(cur) {
			f := c.files[cur.Path]
			return workspace.Change{Rev: f.rev, Path: cur.Path, Deleted: f.deleted, Content: cloneBytes(f.content)}, true
		}
	}
	return workspace.Change{}, false
}

// liveLocked reports whether the index entry cur is still its path's
// current state (and so fetchable, when inside a stream's range).
func (c *Container) liveLocked(cur scheduler.Cursor) bool {
	f := c.files[cur.Path]
	return f != nil && f.rev == cur.Rev && !f.pushed
}

// setFileLocked makes f the state of path: every write to the remote store
// goes through here so that the fetch index stays in step with the files.
func (c *Container) setFileLocked(path string, f *remoteFile) {
	old := c.files[path]
	if old != nil && !old.pushed {
		c.index.stale++ // its entry no longer matches the path's state
	}
	if old == nil {
		c.newPaths = append(c.newPaths, path) // Files merges it in
	}
	c.files[path] = f
	switch wasEditable, editable := old.editable(), f.editable(); {
	case editable && !wasEditable:
		c.editable.Add(path)
	case wasEditable && !editable:
		c.editable.Remove(path)
	}
	if !f.pushed {
		c.index.add(scheduler.AtPath(f.rev, path))
	}
	c.compactLocked()
}

// fetchIndex holds the cursors {rev, path} of container-side file states,
// sorted, so that a stream's Next finds its next entry in O(log n) rather
// than by walking every file (a long scenario accumulates thousands).
// Pushed states are never fetchable and are left out. A rewritten path
// leaves its old entry behind, stale; lookups skip stale entries and add
// compacts once they are the majority. wipeLocked resets it with the files.
type fetchIndex struct {
	entries []scheduler.Cursor
	stale   int
}

// minCompact is the fewest stale entries worth a compaction pass.
const minCompact = 64

// first returns the position of the first entry after after.
func (x *fetchIndex) first(after scheduler.Cursor) int {
	i, found := slices.BinarySearchFunc(x.entries, after, scheduler.Cursor.Compare)
	if found {
		i++
	}
	return i
}

// add inserts cur in order (new states carry the newest rev, so this is
// nearly always an append).
func (x *fetchIndex) add(cur scheduler.Cursor) {
	n := len(x.entries)
	if n == 0 || x.entries[n-1].Less(cur) {
		x.entries = append(x.entries, cur)
		return
	}
	i, found := slices.BinarySearchFunc(x.entries, cur, scheduler.Cursor.Compare)
	if found {
		x.stale-- // the same state again: its entry is live once more
		return
	}
	x.entries = slices.Insert(x.entries, i, cur)
}

// compactLocked drops stale entries once they outnumber the live ones.
func (c *Container) compactLocked() {
	x := &c.index
	if x.stale < minCompact || 2*x.stale < len(x.entries) {
		return
	}
	x.entries = slices.DeleteFunc(x.entries, func(cur scheduler.Cursor) bool { return !c.liveLocked(cur) })
	x.stale = 0
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
	defer c.leave(OpStreamNext)
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
		return workspace.Change{}, cn.failLocked(call, c.secrets.injected(TransportMidStream, msgMidStream), TransportMidStream)
	}
	ch, ok := c.nextLocked(st.pos, st.current)
	if st.arm.due(st.served, ok) {
		a := st.arm.Armed
		st.arm = streamArm{}
		call.Fault, call.Armed = a.Kind, true
		if err := c.fireStreamLocked(a); err != nil {
			return workspace.Change{}, cn.failLocked(call, err, a.Kind)
		}
		// lost-identity proceeds: the store is unchanged, so is ch.
	}
	if !ok {
		if st.failAt >= 0 {
			st.failAt = -1
			return workspace.Change{}, cn.failLocked(call, c.secrets.injected(TransportMidStream, msgMidStream), TransportMidStream)
		}
		st.eof = true
		call.EOF = true
		c.appendLocked(call)
		return workspace.Change{}, io.EOF
	}
	st.pos = ch.Cursor()
	st.served++
	call.Entry, call.Entries = scheduler.Ptr(st.pos), st.served
	if ch.Deleted {
		call.EntryDeleted = true
	} else {
		call.EntryBytes = int64(len(ch.Content))
	}
	c.appendLocked(call)
	return ch, nil
}

// Close cancels the stream; it may be called more than once.
func (st *changeStream) Close() error {
	c := st.cn.c
	actor := c.enter(OpStreamClose)
	defer c.leave(OpStreamClose)
	defer c.mu.Unlock()
	call := st.cn.call(actor, OpStreamClose)
	call.Stream, call.Entries, call.EOF = st.id, st.served, st.eof
	st.closed = true
	c.appendLocked(call)
	return nil
}
