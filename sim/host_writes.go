package sim

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/syncsim/syncsim/workspace"
)

// A host write that returned is durable (SPEC 6.1: the local store makes
// every call one atomic write). The harness, not the workspace, remembers
// which writes were acknowledged; after every step — and so after every host
// restart — each must be in the local store with its content. With the
// liveness properties this closes the loop: liveness-files and liveness-push
// compare local with remote, so a write the local store silently dropped
// would otherwise be missing on both sides and pass.

// hostContent is what SpawnWrite writes at path.
func hostContent(path string) string { return "host " + path }

// ackedWrites holds, per backend, the host-side paths whose write returned
// nil and those whose delete returned nil, each sorted, and the written
// paths in the order they were acknowledged (a delete takes the latest).
type ackedWrites struct {
	paths  [][]string
	gone   [][]string
	order  [][]string
	fresh  bool // a write or delete was acknowledged since the last check
	starts int  // the host start the last check saw
	// pending counts the acknowledgements since the last listing, total
	// all of them (see checkAckedWrites); force asks for a listing at the
	// next check whatever pending says.
	pending, total int
	force          bool
}

func (a *ackedWrites) grow(b int) {
	for len(a.paths) <= b {
		a.paths, a.gone, a.order = append(a.paths, nil), append(a.gone, nil), append(a.order, nil)
	}
}

func (a *ackedWrites) add(b int, path string) {
	a.grow(b)
	a.fresh, a.pending, a.total = true, a.pending+1, a.total+1
	a.paths[b] = insertSorted(a.paths[b], path)
	a.gone[b] = removeSorted(a.gone[b], path)
	a.order[b] = append(a.order[b], path)
}

// remove records an acknowledged delete of path.
func (a *ackedWrites) remove(b int, path string) {
	a.grow(b)
	a.fresh, a.pending, a.total = true, a.pending+1, a.total+1
	a.paths[b] = removeSorted(a.paths[b], path)
	a.gone[b] = insertSorted(a.gone[b], path)
	a.order[b] = slices.DeleteFunc(a.order[b], func(p string) bool { return p == path })
}

// latest returns the most recently acknowledged host write on backend b
// that no acknowledged delete removed since.
func (a *ackedWrites) latest(b int) (string, bool) {
	if b >= len(a.order) || len(a.order[b]) == 0 {
		return "", false
	}
	return a.order[b][len(a.order[b])-1], true
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

// checkAckedWrites is property host-write: every acknowledged host write is
// in the local store, with the content written. A check lists the store,
// which costs as much as the run has files, so it runs after every host
// restart (a reopened store must hold every write it ever acknowledged),
// at the start of the liveness tail (force), and otherwise once the writes
// acknowledged since the last listing are an eighth of all so far: a
// listing after every acknowledged write made a long run's cost per step
// grow with its length, and amortised this way the listings of a run cost
// a constant factor of its writes. A write lost between two listings is
// still caught, at the next one.
func (h *Host) checkAckedWrites() *Violation {
	restarted := h.acked.starts != h.starts
	due := h.acked.fresh && h.acked.pending*ackedListEvery >= h.acked.total
	if !restarted && !due && !(h.acked.force && h.acked.fresh) {
		return nil
	}
	h.acked.fresh, h.acked.starts, h.acked.pending, h.acked.force = false, h.starts, 0, false
	for b, paths := range h.acked.paths {
		if len(paths) == 0 && len(h.acked.gone[b]) == 0 {
			continue
		}
		files, err := h.localFiles(b)
		if err != nil {
			return h.failStore("durability", fmt.Errorf("local store Files(%s): %w", h.names[b], err))
		}
		content := contentByPath(files)
		for _, p := range paths {
			got, found := content.get(p)
			if !found {
				return h.fail("host-write", fmt.Sprintf("backend %s: host write %s: expected in the local store (acknowledged), got none", h.names[b], p))
			}
			if !bytes.Equal(got, []byte(hostContent(p))) {
				return h.fail("host-write", fmt.Sprintf("backend %s: host write %s: expected %q (acknowledged), got %q in the local store",
					h.names[b], p, hostContent(p), got))
			}
		}
		for _, p := range h.acked.gone[b] {
			if got, found := content.get(p); found {
				return h.fail("host-write", fmt.Sprintf("backend %s: host delete of %s was acknowledged, the local store still holds it (%q)", h.names[b], p, got))
			}
		}
	}
	return nil
}

// ackedListEvery: a listing is due once the acknowledgements since the last
// one are at least 1/ackedListEvery of all of them.
const ackedListEvery = 8

// fileIndex looks files up by path. A listing in strictly increasing path
// order — the store's promise — is searched in place; any other order is
// indexed in a map, because a store that breaks its order must not read as
// one that lost a file. Checking the order is one pass, far cheaper than
// building a map of a long run's files at every check. The checks look
// paths up in increasing order (they walk another sorted listing), so a
// lookup first steps forward from the last one: a whole check is a merge of
// two listings, not a binary search per file.
type fileIndex struct {
	sorted []workspace.File
	byPath map[string][]byte
	next   int // where the previous lookup stopped in sorted
}

// forwardSteps bounds the forward scan of a lookup before it falls back to
// a binary search of the rest.
const forwardSteps = 8

func contentByPath(files []workspace.File) fileIndex {
	for i := 1; i < len(files); i++ {
		if files[i-1].Path >= files[i].Path {
			m := make(map[string][]byte, len(files))
			for _, f := range files {
				m[f.Path] = f.Content
			}
			return fileIndex{byPath: m}
		}
	}
	return fileIndex{sorted: files}
}

// get returns the content at path and whether a file is there.
func (x *fileIndex) get(path string) ([]byte, bool) {
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
