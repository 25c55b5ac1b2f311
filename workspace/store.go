package workspace

// Store is the host's durable local store: per backend, the host-side files,
// the local change log of host-side writes (what pushes carry), the fetch
// cursor and the push cursor (SPEC 6.1). Each backend is mounted in its own
// namespace, so its files never mix with another backend's.
//
// Implementations must be safe for concurrent use and make every method one
// atomic write: a crash between two calls leaves the first call's effect.
type Store interface {
	// WriteFile records a host-side write (or delete) of path: it stamps a new
	// local revision and appends the change to the local log that pushes send.
	// The store keeps its own copy of content: the caller may reuse the slice
	// once the call returns.
	WriteFile(backend, path string, content []byte, deleted bool) (rev int64, err error)
	// ApplyUpstream applies changes pulled from the remote (source upstream):
	// files change and no local revision is stamped. An applied entry
	// supersedes a pending local change of the same path (LocalChanges
	// returns each path at its latest state, and that state now came from
	// upstream); an entry whose content already matches changes nothing. It
	// reports how many entries were applied: deletes always count, a write
	// whose content already matches does not (SPEC 6.7 alreadyApplied). The
	// store keeps its own copies of the contents.
	ApplyUpstream(backend string, changes []Change) (applied int, err error)
	// Files returns the backend's live files, sorted by path. As with
	// LocalChanges, the store must not modify a content once it has handed
	// it out (a later write of the path, or a later listing, must not reuse
	// its buffer).
	Files(backend string) ([]File, error)
	// CurrentRev is the backend's latest local revision (0 when none).
	CurrentRev(backend string) (int64, error)
	// LocalChanges returns coalesced local changes in (after, through], one per
	// path at its latest state, ordered by (rev, path), at most limit (a limit
	// of 0 or less: no limit). Their contents may be shared with the store:
	// the caller reads them and must not modify one, and the store must not
	// modify one it has handed out either.
	LocalChanges(backend string, after, through Cursor, limit int) ([]Change, error)

	// FetchCursor reads the fetch cursor; a stored rev 0 reads as {0,null}.
	FetchCursor(backend string) (Cursor, error)
	// WriteFetchCursor stores c unconditionally (resets only).
	WriteFetchCursor(backend string, c Cursor) error
	// WriteFetchCursorIfAhead stores c only when it is ahead of the stored
	// cursor and reports whether it wrote.
	WriteFetchCursorIfAhead(backend string, c Cursor) (bool, error)

	// PushRev reads the legacy scalar push watermark.
	PushRev(backend string) (int64, error)
	// SetPushRev writes only the legacy scalar (the pullOnce reset QUIRK).
	SetPushRev(backend string, rev int64) error
	// PushCursor reads the path-aware push cursor: {pushRev,null} when no row
	// exists or pushRev > row.rev, else the row.
	PushCursor(backend string) (Cursor, error)
	// WritePushCursor writes the row and the scalar together.
	WritePushCursor(backend string, c Cursor) error
}

// File is one live host-side file.
type File struct {
	Path    string
	Content []byte
	// Rev is the revision that last changed the file.
	Rev int64
}
