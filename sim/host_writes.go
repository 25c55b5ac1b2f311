package sim

import (
	"bytes"
	"fmt"
	"github.com/syncsim/syncsim/workspace"
	"slices"
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
// nil, sorted.
type ackedWrites struct {
	paths  [][]string
	fresh  bool // a write was acknowledged since the last check
	starts int  // the host start the last check saw
}

func (a *ackedWrites) add(b int, path string) {
	for len(a.paths) <= b {
		a.paths = append(a.paths, nil)
	}
	a.fresh = true
	i, found := slices.BinarySearch(a.paths[b], path)
	if !found {
		a.paths[b] = slices.Insert(a.paths[b], i, path)
	}
}

// checkAckedWrites is property host-write: every acknowledged host write is
// in the local store, with the content written. It lists the store only
// when a write was acknowledged since the last check or the host restarted
// since (a reopened store must hold every write it ever acknowledged): a
// listing after every step made a long run's cost per step grow with it.
func (h *Host) checkAckedWrites() *Violation {
	if !h.acked.fresh && h.acked.starts == h.starts {
		return nil
	}
	h.acked.fresh, h.acked.starts = false, h.starts
	for b, paths := range h.acked.paths {
		if len(paths) == 0 {
			continue
		}
		files, err := h.store.Files(h.names[b])
		if err != nil {
			return h.failStore("durability", fmt.Errorf("local store Files(%s): %w", h.names[b], err))
		}
		// Not a binary search: the order is the store's promise, and a
		// plugged-in store that breaks it must not read as a lost write.
		content := contentByPath(files)
		for _, p := range paths {
			got, found := content[p]
			if !found {
				return h.fail("host-write", fmt.Sprintf("backend %s: host write %s: expected in the local store (acknowledged), got none", h.names[b], p))
			}
			if !bytes.Equal(got, []byte(hostContent(p))) {
				return h.fail("host-write", fmt.Sprintf("backend %s: host write %s: expected %q (acknowledged), got %q in the local store",
					h.names[b], p, hostContent(p), got))
			}
		}
	}
	return nil
}

// contentByPath indexes files by path: a map, not a binary search, because
// sorted order is a store's promise and a store that breaks it must not
// read as one that lost a file.
func contentByPath(files []workspace.File) map[string][]byte {
	out := make(map[string][]byte, len(files))
	for _, f := range files {
		out[f.Path] = f.Content
	}
	return out
}
