package workspace

import (
	"fmt"
	"math"
)

// Both Store implementations share these rules so that a simulator can swap
// one for the other without a visible difference:
//
//   - Content is copied on the way in and on the way out; a caller never
//     aliases stored bytes. A live file's content is never nil ([]byte{} when
//     empty); a delete's content is always nil.
//   - Local revisions count host-side writes only (WriteFile). Upstream
//     applies change files but neither stamp a local revision nor enter the
//     local change log: they must not be pushed back to the remote they came
//     from (SPEC 6.7, source "upstream").
//   - An upstream apply that actually changes a path supersedes that path's
//     pending local change (the log is coalesced to the latest state of each
//     path, and the latest state now came from upstream). An upstream entry
//     that is alreadyApplied changes nothing, so the local change stays.
//   - A file last written by an upstream apply carries the remote revision of
//     that change in File.Rev; a file last written on the host carries its
//     local revision.
//   - Deletes remove exactly the named path: the file model has no
//     directories, so the "recursive remove" of SPEC 6.7 has nothing below a
//     path to remove.

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER, the bound SPEC 6.4
// puts on budget fields and the bound the stores put on revisions.
const maxSafeInteger = 1<<53 - 1

// storeFetchCursor is the read rule of SPEC 6.1: a stored fetchRev of 0
// reads as the baseline whatever the path column holds.
func storeFetchCursor(rev int64, path string, hasPath bool) Cursor {
	if rev == 0 {
		return Cursor{}
	}
	return Cursor{Rev: rev, Path: path, HasPath: hasPath}
}

// storePushCursor is the read rule of SPEC 6.1: no row, or a legacy scalar
// ahead of the row, reads as {pushRev, null}; otherwise the row.
func storePushCursor(pushRev int64, row *Cursor) Cursor {
	if row == nil || pushRev > row.Rev {
		return Cursor{Rev: pushRev}
	}
	return *row
}

// normalizeCursor drops a path that HasPath says is absent, so that two
// equal cursors are also equal as Go values.
func normalizeCursor(c Cursor) Cursor {
	if !c.HasPath {
		c.Path = ""
	}
	return c
}

// checkCursorArg rejects cursors a store cannot hold.
func checkCursorArg(backend, what string, c Cursor) error {
	if c.Rev < 0 || c.Rev > maxSafeInteger {
		return fmt.Errorf("store: backend %q: %s cursor %s: rev out of range", backend, what, c)
	}
	return nil
}

// inRange reports after < c <= through in cursor order (SPEC 1.1).
func inRange(c, after, through Cursor) bool {
	return after.Less(c) && !through.Less(c)
}

// copyContent returns a private copy of a live file's content (never nil).
func copyContent(b []byte) []byte {
	out := make([]byte, len(b))
	copy(out, b)
	return out
}

// changeContent returns the stored form of a change's content: nil for a
// delete, a private non-nil copy otherwise.
func changeContent(deleted bool, b []byte) []byte {
	if deleted {
		return nil
	}
	return copyContent(b)
}

// effectiveLimit turns a LocalChanges limit into a count; limit <= 0 means
// "no limit".
func effectiveLimit(limit int) int {
	if limit <= 0 {
		return math.MaxInt
	}
	return limit
}
