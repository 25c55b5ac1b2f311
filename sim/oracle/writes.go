package oracle

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/syncsim/syncsim/workspace"
)

// A host write that returned is durable (SPEC 6.1: the local store makes
// every call one atomic write). The harness, not the workspace, remembers
// which writes were acknowledged; after every step — and so after every host
// restart — each must be in the local store with its content. The driver
// asks Due when a check may list the store, lists it, and hands each
// backend's listing to Check. With the
// liveness properties this closes the loop: liveness-files and liveness-push
// compare local with remote, so a write the local store silently dropped
// would otherwise be missing on both sides and pass.

// HostContent is what the driver's host writes (sim.Host.SpawnWrite) write
// at path: the content host-write expects there.
func HostContent(path string) string { return HostContentSized(path, 0) }

// HostContentSized is HostContent padded to exactly size bytes (size <= 0:
// as it is): what a sized host write (sim.Host.SpawnWritesSized) writes.
func HostContentSized(path string, size int) string {
	return string(AppendHostContent(nil, path, size))
}

// hostFiller is the pattern a sized host write is padded with, repeated
// from the end of HostContent's text.
const hostFiller = "host-write-padding "

// hostFillerBlock is hostFiller repeated to a whole number of copies near
// 64 KiB: a padded tail is written and compared a block at a time.
var hostFillerBlock = []byte(strings.Repeat(hostFiller, 64<<10/len(hostFiller)))

// hostContentLen is the length of HostContentSized(path, size).
func hostContentLen(path string, size int) int {
	return max(len("host ")+len(path), size)
}

// AppendHostContent appends HostContentSized(path, size) to dst. A sized
// write of megabytes is built in one allocation (the string form costs
// three).
func AppendHostContent(dst []byte, path string, size int) []byte {
	dst = slices.Grow(dst, hostContentLen(path, size))
	dst = append(append(dst, "host "...), path...)
	for rest := size - len("host ") - len(path); rest > 0; {
		n := min(rest, len(hostFillerBlock))
		dst = append(dst, hostFillerBlock[:n]...)
		rest -= n
	}
	return dst
}

// IsHostContent reports whether got is exactly HostContentSized(path,
// size), without building it: the host-write check compares every
// acknowledged write at every listing, and building a megabyte-sized
// expectation each time was half of what a run with big writes allocated.
func IsHostContent(got []byte, path string, size int) bool {
	if len(got) != hostContentLen(path, size) {
		return false
	}
	head := len("host ") + len(path)
	if string(got[:len("host ")]) != "host " || string(got[len("host "):head]) != path {
		return false
	}
	for tail := got[head:]; len(tail) > 0; {
		n := min(len(tail), len(hostFillerBlock))
		if !bytes.Equal(tail[:n], hostFillerBlock[:n]) {
			return false
		}
		tail = tail[n:]
	}
	return true
}

// AckedWrites holds, per backend, the host-side paths whose write returned
// nil and those whose delete returned nil, each sorted, and the written
// paths in the order they were acknowledged (a delete takes the latest).
// The zero value is ready.
type AckedWrites struct {
	paths  [][]string
	gone   [][]string
	order  [][]string
	fresh  bool // a write or delete was acknowledged since the last check
	starts int  // the host start the last check saw
	// pending counts the acknowledgements since the last listing, total
	// all of them (see Due); force asks for a listing at the next check
	// whatever pending says.
	pending, total int
	force          bool
	// sizes holds, per backend, the size of each acknowledged sized
	// write (HostContentSized); a path not in it holds HostContent.
	sizes []map[string]int
	// versions holds, per backend, the version of each acknowledged
	// rewrite (ContentKey); a path not in it holds its first content.
	versions []map[string]int
}

func (a *AckedWrites) grow(b int) {
	for len(a.paths) <= b {
		a.paths, a.gone, a.order = append(a.paths, nil), append(a.gone, nil), append(a.order, nil)
	}
}

// Add records an acknowledged write of path on backend b.
func (a *AckedWrites) Add(b int, path string) { a.AddSized(b, path, 0) }

// AddSized records an acknowledged write of path on backend b whose
// content HostContentSized gives for size.
func (a *AckedWrites) AddSized(b int, path string, size int) { a.AddVersion(b, path, size, 0) }

// ContentKey is what a host write of path at version v derives its content
// from (HostContentSized(ContentKey(path, v), size)): the path itself for
// a path's first write, and the path with " #v" for its v-th rewrite, so
// that a rewrite of the same size has the same length and other bytes.
func ContentKey(path string, v int) string {
	if v == 0 {
		return path
	}
	return path + " #" + strconv.Itoa(v)
}

// setNonZero sets (*m)[b][path] to v, or deletes it for v <= 0: the
// per-backend maps hold only paths that differ from the default.
func setNonZero(m *[]map[string]int, b int, path string, v int) {
	for len(*m) <= b {
		*m = append(*m, nil)
	}
	switch {
	case v > 0:
		if (*m)[b] == nil {
			(*m)[b] = map[string]int{}
		}
		(*m)[b][path] = v
	case (*m)[b] != nil:
		delete((*m)[b], path)
	}
}

// AddVersion records an acknowledged write of path on backend b whose
// content is HostContentSized(ContentKey(path, version), size).
func (a *AckedWrites) AddVersion(b int, path string, size, version int) {
	a.grow(b)
	setNonZero(&a.versions, b, path, version)
	setNonZero(&a.sizes, b, path, size)
	a.fresh, a.pending, a.total = true, a.pending+1, a.total+1
	if _, again := slices.BinarySearch(a.paths[b], path); again {
		// A rewrite: the path moves to the end of the order, once.
		a.order[b] = slices.DeleteFunc(a.order[b], func(p string) bool { return p == path })
	}
	a.paths[b] = insertSorted(a.paths[b], path)
	a.gone[b] = removeSorted(a.gone[b], path)
	a.order[b] = append(a.order[b], path)
}

// Remove records an acknowledged delete of path on backend b.
func (a *AckedWrites) Remove(b int, path string) {
	a.grow(b)
	a.fresh, a.pending, a.total = true, a.pending+1, a.total+1
	a.paths[b] = removeSorted(a.paths[b], path)
	a.gone[b] = insertSorted(a.gone[b], path)
	a.order[b] = slices.DeleteFunc(a.order[b], func(p string) bool { return p == path })
}

// Latest returns the most recently acknowledged host write on backend b
// that no acknowledged delete removed since.
func (a *AckedWrites) Latest(b int) (string, bool) {
	if b >= len(a.order) || len(a.order[b]) == 0 {
		return "", false
	}
	return a.order[b][len(a.order[b])-1], true
}

// Acked returns backend b's acknowledged host writes that no delete
// removed since, in the order they were acknowledged; the slice is the
// ledger's own and must not be modified.
func (a *AckedWrites) Acked(b int) []string {
	if b >= len(a.order) {
		return nil
	}
	return a.order[b]
}

// VersionOf is the version of the latest acknowledged write of path on
// backend b (0: its first content; see ContentKey).
func (a *AckedWrites) VersionOf(b int, path string) int {
	if b >= len(a.versions) {
		return 0
	}
	return a.versions[b][path]
}

// SizeOf is the size the latest acknowledged write of path on backend b
// was padded to (0: HostContent as it is).
func (a *AckedWrites) SizeOf(b int, path string) int {
	if b >= len(a.sizes) {
		return 0
	}
	return a.sizes[b][path]
}

func insertSorted(s []string, v string) []string {
	if i, found := slices.BinarySearch(s, v); !found {
		return slices.Insert(s, i, v)
	}
	return s
}

func removeSorted(s []string, v string) []string {
	if i, found := slices.BinarySearch(s, v); found {
		return slices.Delete(s, i, i+1)
	}
	return s
}

// Due says whether a host-write check lists the store now, and if so
// starts a new listing period. starts is the driver's count of host
// starts. A check lists the store, which costs as much as the run has
// files, so it runs after every host restart (a reopened store must hold
// every write it ever acknowledged), after Force (the start of the
// liveness tail), and otherwise once the writes acknowledged since the
// last listing are an eighth of all so far: a listing after every
// acknowledged write made a long run's cost per step grow with its length,
// and amortised this way the listings of a run cost a constant factor of
// its writes. A write lost between two listings is still caught, at the
// next one. Nothing is due without an acknowledgement since the last
// listing, except after a restart.
func (a *AckedWrites) Due(starts int) bool {
	restarted := a.starts != starts
	due := a.fresh && a.pending*ackedListEvery >= a.total
	if !restarted && !due && !(a.force && a.fresh) {
		return false
	}
	a.fresh, a.starts, a.pending, a.force = false, starts, 0, false
	return true
}

// Force makes the next Due list the store if anything was acknowledged
// since the last listing.
func (a *AckedWrites) Force() { a.force = true }

// Backends is how many backends have had a write or delete acknowledged
// (indexes 0 up to it; Tracks says which hold any).
func (a *AckedWrites) Backends() int { return len(a.paths) }

// Tracks reports whether backend b has an acknowledged write or delete to
// check.
func (a *AckedWrites) Tracks(b int) bool {
	return b < len(a.paths) && (len(a.paths[b]) > 0 || len(a.gone[b]) > 0)
}

// Check is host-write for backend b (named name in the description), given
// its local store listing: every acknowledged write is there with the
// content written, and no acknowledged delete's path is.
func (a *AckedWrites) Check(b int, name string, files []workspace.File) (string, bool) {
	if b >= len(a.paths) {
		return "", false
	}
	content := IndexFiles(files)
	for _, p := range a.paths[b] {
		got, found := content.Get(p)
		if !found {
			return fmt.Sprintf("backend %s: host write %s: expected in the local store (acknowledged), got none", name, p), true
		}
		size, key := a.SizeOf(b, p), ContentKey(p, a.VersionOf(b, p))
		if !IsHostContent(got, key, size) {
			return fmt.Sprintf("backend %s: host write %s: expected %q (acknowledged), got %q in the local store",
				name, p, clip(HostContentSized(key, size)), clip(string(got))), true
		}
	}
	for _, p := range a.gone[b] {
		if got, found := content.Get(p); found {
			return fmt.Sprintf("backend %s: host delete of %s was acknowledged, the local store still holds it (%q)", name, p, got), true
		}
	}
	return "", false
}

// ackedListEvery: a listing is due once the acknowledgements since the last
// one are at least 1/ackedListEvery of all of them.
const ackedListEvery = 8

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
