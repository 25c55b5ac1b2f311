package scheduler

import (
	"fmt"
	"strings"
)

// Cursor is a position in a change stream (SPEC 1.1). Rev is the revision;
// the path is either null ("everything at or before Rev has been offered") or
// a string ("inside Rev, everything up to and including Path"). The null path
// is distinct from every string path, "" included, so it is carried by
// HasPath rather than by a sentinel string.
type Cursor struct {
	Rev     int64
	Path    string
	HasPath bool
}

// Baseline is the cursor {0, null}: nothing seen yet.
var Baseline = Cursor{}

// At returns the cursor {rev, null}: rev fully drained.
func At(rev int64) Cursor { return Cursor{Rev: rev} }

// AtPath returns the cursor {rev, path}: inside rev, up to and including path.
func AtPath(rev int64, path string) Cursor { return Cursor{Rev: rev, Path: path, HasPath: true} }

// Compare orders cursors as SPEC 1.1 does: by rev, then a null path sorts
// after every string path of the same rev, then paths compare bytewise.
//
// NB: the TypeScript original compares UTF-16 code units; Go compares UTF-8
// bytes. The two agree for every path below U+E000 (SPEC 1.1 "Go note").
func (c Cursor) Compare(o Cursor) int {
	switch {
	case c.Rev < o.Rev:
		return -1
	case c.Rev > o.Rev:
		return 1
	case c.HasPath == o.HasPath && c.Path == o.Path:
		return 0
	case !c.HasPath && o.HasPath:
		return 1
	case c.HasPath && !o.HasPath:
		return -1
	case !c.HasPath && !o.HasPath:
		return 0
	}
	return strings.Compare(c.Path, o.Path)
}

// Less reports whether c sorts strictly before o.
func (c Cursor) Less(o Cursor) bool { return c.Compare(o) < 0 }

// String renders the cursor as {rev,null} or {rev,"path"}; traces and
// golden files rely on this exact form.
func (c Cursor) String() string {
	if !c.HasPath {
		return fmt.Sprintf("{%d,null}", c.Rev)
	}
	return fmt.Sprintf("{%d,%q}", c.Rev, c.Path)
}

// MinCursor returns the smaller of a and b.
func MinCursor(a, b Cursor) Cursor {
	if b.Less(a) {
		return b
	}
	return a
}

// MaxCursor returns the larger of a and b.
func MaxCursor(a, b Cursor) Cursor {
	if a.Less(b) {
		return b
	}
	return a
}
