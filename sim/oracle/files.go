package oracle

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/syncsim/syncsim/sim/ledger"
	"github.com/syncsim/syncsim/workspace"
)

// checkHostWrites is host-write for backend b (named name in the description), given
// its local store listing: every acknowledged write is there with the
// content written, and no acknowledged delete's path is.
func checkHostWrites(a *ledger.Writes, b int, name string, files []workspace.File) (string, bool) {
	if b >= a.Backends() {
		return "", false
	}
	content := IndexFiles(files)
	for _, p := range a.Written(b) {
		got, found := content.Get(p)
		if !found {
			return fmt.Sprintf("backend %s: host write %s: expected in the local store (acknowledged), got none", name, p), true
		}
		size, key := a.SizeOf(b, p), ledger.ContentKey(p, a.VersionOf(b, p))
		if !ledger.IsHostContent(got, key, size) {
			return fmt.Sprintf("backend %s: host write %s: expected %q (acknowledged), got %q in the local store",
				name, p, clip(ledger.HostContentSized(key, size)), clip(string(got))), true
		}
	}
	for _, p := range a.Deleted(b) {
		if got, found := content.Get(p); found {
			return fmt.Sprintf("backend %s: host delete of %s was acknowledged, the local store still holds it (%q)", name, p, got), true
		}
	}
	return "", false
}

// FileIndex looks files up by path. A listing in strictly increasing path
// order — the store's promise — is searched in place; any other order is
// indexed in a map, because a store that breaks its order must not read as
// one that lost a file. Checking the order is one pass, far cheaper than
// building a map of a long run's files at every check. The checks look
// paths up in increasing order (they walk another sorted listing), so a
// lookup first steps forward from the last one: a whole check is a merge of
// two listings, not a binary search per file.
type FileIndex struct {
	sorted []workspace.File
	byPath map[string][]byte
	next   int // where the previous lookup stopped in sorted
}

// forwardSteps bounds the forward scan of a lookup before it falls back to
// a binary search of the rest.
const forwardSteps = 8

// IndexFiles returns an index of files, a store's listing; it keeps files,
// which must not change while the index is used.
func IndexFiles(files []workspace.File) FileIndex {
	for i := 1; i < len(files); i++ {
		if files[i-1].Path >= files[i].Path {
			m := make(map[string][]byte, len(files))
			for _, f := range files {
				m[f.Path] = f.Content
			}
			return FileIndex{byPath: m}
		}
	}
	return FileIndex{sorted: files}
}

// Get returns the content at path and whether a file is there.
func (x *FileIndex) Get(path string) ([]byte, bool) {
	if x.byPath != nil {
		c, ok := x.byPath[path]
		return c, ok
	}
	byPath := func(f workspace.File, p string) int { return strings.Compare(f.Path, p) }
	i := x.next
	if i > 0 && x.sorted[i-1].Path >= path {
		i, _ = slices.BinarySearchFunc(x.sorted, path, byPath) // a step back
	} else {
		for k := 0; k < forwardSteps && i < len(x.sorted) && x.sorted[i].Path < path; k++ {
			i++
		}
		if i < len(x.sorted) && x.sorted[i].Path < path {
			j, _ := slices.BinarySearchFunc(x.sorted[i:], path, byPath)
			i += j
		}
	}
	if i < len(x.sorted) && x.sorted[i].Path == path {
		x.next = i + 1
		return x.sorted[i].Content, true
	}
	x.next = i
	return nil, false
}

// clip shortens a content for a report: a sized write is megabytes.
func clip(s string) string {
	const keep = 96
	if len(s) <= keep {
		return s
	}
	return s[:keep] + "...(" + strconv.Itoa(len(s)) + " bytes)"
}
