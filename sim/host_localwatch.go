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

// handedOutWatch is the last maxWatched contents handed out, oldest at
// next once full. The zero value is ready.
type handedOutWatch struct {
	kept []handedOut
	next int
}

// keep watches e, dropping the oldest once full.
func (w *handedOutWatch) keep(e handedOut) {
	if len(w.kept) < maxWatched {
		w.kept = append(w.kept, e)
		return
	}
	w.kept[w.next] = e
	w.next = (w.next + 1) % maxWatched
}

// changed returns the first watched content that no longer holds what it
// held when handed out.
func (w *handedOutWatch) changed() (handedOut, bool) {
	for _, e := range w.kept {
		if !bytes.Equal(e.buf, e.was) {
			return e, true
		}
	}
	return handedOut{}, false
}

// forget drops every watched content.
func (w *handedOutWatch) forget() {
	clear(w.kept)
	w.kept, w.next = w.kept[:0], 0
}

// watchHandedOut keeps buf, the content of path at rev that the store's op
// handed out for backend.
func (h *Host) watchHandedOut(op, backend, path string, rev int64, buf []byte) {
	if !h.hist.Reads(history.LocalMutated) || len(buf) == 0 || len(buf) > maxWatchedContent {
		return
	}
	h.observed.handed.keep(handedOut{op: op, backend: backend, path: path, rev: rev, buf: buf, was: append([]byte(nil), buf...)})
}

// checkHandedOut appends the first content the store handed out that
// changed since; after names the call just made.
func (h *Host) checkHandedOut(after, backend string) {
	if h.violated != nil {
		return
	}
	if e, ok := h.observed.handed.changed(); ok {
		h.appendEvent(history.Event{Kind: history.LocalMutated, Actor: h.rt.Actor(), Mutated: &history.Mutated{
			After: after, Store: backend, Op: e.op, From: e.backend, Path: e.path, Rev: e.rev,
			Was: e.was, Now: bytes.Clone(e.buf)}})
	}
}

// forgetHandedOut drops the watch (a host start: the workspace that held
// the contents is gone).
func (h *Host) forgetHandedOut() { h.observed.handed.forget() }
