package sim

import (
	"bytes"
	"fmt"
)

// A local store may share the contents it hands out (workspace.Store:
// LocalChanges's contents may be the store's own), so it must never modify
// one in place afterwards: a push holding its batch, or a caller holding a
// listing, would then read bytes nobody wrote. A store that reuses the
// buffer of a same-size file for its next write, or one listing buffer for
// every Files call, does exactly that, and nothing in the store's answers
// shows it: the model sees each answer as it is given, correct at that
// moment.
//
// So the host keeps the last maxWatched small contents the store handed to
// the workspace (Files, LocalChanges), each with a copy taken as it was
// handed out, and after every later call that can change contents or hand
// out new ones, holds each to its copy (property local-store). Host
// rewrites of a path at the same size reach the buffer-reuse case; the
// watch costs a copy of a few small contents per listing.

// maxWatched is how many handed-out contents the watch keeps (the newest);
// maxWatchedContent the largest it copies.
const (
	maxWatched        = 64
	maxWatchedContent = 1 << 10
)

// handedOut is one content the store handed out, and what it held then.
type handedOut struct {
	op, backend, path string
	rev               int64
	buf, was          []byte
}

// watchHandedOut keeps buf, the content of path at rev that the store's op
// handed out for backend.
func (h *Host) watchHandedOut(op, backend, path string, rev int64, buf []byte) {
	if len(buf) == 0 || len(buf) > maxWatchedContent {
		return
	}
	e := handedOut{op: op, backend: backend, path: path, rev: rev, buf: buf, was: append([]byte(nil), buf...)}
	if len(h.watched) < maxWatched {
		h.watched = append(h.watched, e)
		return
	}
	h.watched[h.watchNext] = e
	h.watchNext = (h.watchNext + 1) % maxWatched
}

// checkHandedOut breaks local-store if a content the store handed out
// changed since; after names the call just made.
func (h *Host) checkHandedOut(after, backend string) {
	if h.violated != nil {
		return
	}
	for _, e := range h.watched {
		if !bytes.Equal(e.buf, e.was) {
			h.fail("local-store", fmt.Sprintf("%s: local store %s %s: the content of %s (rev %d) that %s %s handed out earlier changed in place from %q to %q: a store must not modify a content it has handed out (workspace.Store, LocalChanges)",
				h.storeActor(), after, backend, e.path, e.rev, e.op, e.backend, clipBytes(e.was), clipBytes(e.buf)))
			return
		}
	}
}

// forgetHandedOut drops the watch (a host start: the workspace that held
// the contents is gone).
func (h *Host) forgetHandedOut() {
	clear(h.watched)
	h.watched, h.watchNext = h.watched[:0], 0
}

// clipBytes shortens b for a message.
func clipBytes(b []byte) string {
	const max = 80
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}
