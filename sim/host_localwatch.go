package sim

import (
	"bytes"

	"github.com/syncsim/syncsim/sim/history"
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
// out new ones, holds each to its copy, and appends a content found
// changed (a LocalMutated event: property local-store judges it). Host
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
	if !h.hist.Reads(history.LocalMutated) || len(buf) == 0 || len(buf) > maxWatchedContent {
		return
	}
	e := handedOut{op: op, backend: backend, path: path, rev: rev, buf: buf, was: append([]byte(nil), buf...)}
	if len(h.observed.watched) < maxWatched {
		h.observed.watched = append(h.observed.watched, e)
		return
	}
	h.observed.watched[h.observed.watchNext] = e
	h.observed.watchNext = (h.observed.watchNext + 1) % maxWatched
}

// checkHandedOut appends the first content the store handed out that
// changed since; after names the call just made.
func (h *Host) checkHandedOut(after, backend string) {
	if h.violated != nil {
		return
	}
	for _, e := range h.observed.watched {
		if !bytes.Equal(e.buf, e.was) {
			h.appendEvent(history.Event{Kind: history.LocalMutated, Actor: h.rt.Actor(), Mutated: &history.Mutated{
				After: after, Store: backend, Op: e.op, From: e.backend, Path: e.path, Rev: e.rev,
				Was: e.was, Now: bytes.Clone(e.buf)}})
			return
		}
	}
}

// forgetHandedOut drops the watch (a host start: the workspace that held
// the contents is gone).
func (h *Host) forgetHandedOut() {
	clear(h.observed.watched)
	h.observed.watched, h.observed.watchNext = h.observed.watched[:0], 0
}
