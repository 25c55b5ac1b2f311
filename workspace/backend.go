package workspace

import (
	"context"

	"github.com/syncsim/syncsim/scheduler"
)

// Cursor is the change-stream position shared with the scheduler package.
type Cursor = scheduler.Cursor

// Backend is a container backend the workspace keeps files in sync with.
// Connect opens a new connection; the workspace caches the handle until a
// transport failure invalidates it (SPEC 5.3, 5.4).
type Backend interface {
	// Connect opens a new connection to the backend's current runtime.
	Connect(ctx context.Context) (Handle, error)
}

// SyncMode says whether a handle carries a sync RPC surface.
type SyncMode int

const (
	// SyncRemote handles expose Sync(); files are pushed and pulled.
	SyncRemote SyncMode = iota
	// SyncNone handles have no sync surface: pulls complete empty (SPEC 4).
	SyncNone
)

// String returns "none" for SyncNone and "remote" otherwise, the words the
// SPEC's handles use (SPEC 4, 5.4).
func (m SyncMode) String() string {
	if m == SyncNone {
		return "none"
	}
	return "remote"
}

// Handle is one live connection to a backend.
type Handle interface {
	// RuntimeID is the identity of the container process behind this
	// connection; ok is false when the connection reports none.
	RuntimeID() (id string, ok bool)
	// SyncMode reports whether Sync may be called.
	SyncMode() SyncMode
	// Sync is the remote's sync RPC surface (nil for SyncNone handles).
	Sync() SyncRPC
	// Exec spawns a shell command and returns its event stream.
	Exec(ctx context.Context, command string) (EventStream, error)
	// Close releases the connection. It may be called more than once.
	Close() error
}

// SyncRPC is the remote half of the sync driver (SPEC 6.2).
type SyncRPC interface {
	// FetchChanges opens a snapshot-bounded change stream after req.After.
	FetchChanges(ctx context.Context, req FetchRequest) (*FetchEnvelope, error)
	// Watermarks reads the remote's revisions; with Settle the remote first
	// runs its pre-fetch reconcile hook and a failure there is returned.
	Watermarks(ctx context.Context, req WatermarksRequest) (Watermarks, error)
	// Push applies a batch of local changes in one transaction.
	Push(ctx context.Context, req PushRequest) (PushResult, error)
}

// FetchRequest asks for changes strictly after After and, when Through is
// set, at or before it.
type FetchRequest struct {
	After   Cursor
	Through *Cursor
}

// FetchEnvelope is the remote's answer to FetchChanges.
type FetchEnvelope struct {
	// CurrentCursor is the advertised snapshot bound of the stream.
	CurrentCursor Cursor
	// AppliedPushCursor is how far the remote has applied our pushes, in our
	// (local) revision space.
	AppliedPushCursor Cursor
	// Changes yields one entry per path ordered by (rev, path).
	Changes ChangeStream
}

// ChangeStream is a lazily read stream of changes. Next returns io.EOF at
// the end. Close cancels and disposes the stream; the workspace calls it
// exactly once on every exit path (SPEC 6.3 step 9).
type ChangeStream interface {
	// Next returns the next change, or io.EOF after the last one.
	Next(ctx context.Context) (Change, error)
	// Close cancels and disposes the stream.
	Close() error
}

// Change is one coalesced entry: the latest state of Path as of Rev. Blob
// chunking is out of scope, so an entry carries its content whole.
type Change struct {
	Rev     int64
	Path    string
	Deleted bool
	Content []byte
}

// Cursor returns the stream position of this entry, {Rev, Path}.
func (c Change) Cursor() Cursor { return scheduler.AtPath(c.Rev, c.Path) }

// WatermarksRequest carries the settle flag of SPEC 6.2.
type WatermarksRequest struct {
	Settle bool
}

// Watermarks are the remote's revisions (SPEC 6.2).
type Watermarks struct {
	CurrentRev int64
	PushRev    int64
	// FetchCursor is how far the remote has applied our pushes.
	FetchCursor Cursor
}

// PushRequest sends local changes to the remote. SenderCursor defaults to
// {SenderRev, null} when nil.
type PushRequest struct {
	SenderRev    int64
	SenderCursor *Cursor
	Changes      []Change
}

// PushResult is the remote's acknowledgement of a push.
type PushResult struct {
	Rev               int64
	Applied           int
	AppliedPushCursor Cursor
}

// EventKind tells apart the events of a command's stream.
type EventKind int

const (
	// EventStdout carries a chunk of the command's standard output in Data.
	EventStdout EventKind = iota
	// EventStderr carries a chunk of its standard error in Data.
	EventStderr
	// EventExit ends the stream and carries the command's ExitCode.
	EventExit
)

// Event is one item of a command's event stream; the stream ends with an
// EventExit carrying ExitCode, or with an error from Next.
type Event struct {
	Kind     EventKind
	Data     string
	ExitCode int
}

// EventStream is a command's event stream. Next returns io.EOF after the
// exit event. Close cancels the stream upstream.
type EventStream interface {
	// Next returns the next event, or io.EOF after the exit event.
	Next(ctx context.Context) (Event, error)
	// Close cancels the stream upstream.
	Close() error
}
