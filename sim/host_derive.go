package sim

import (
	"slices"
	"sync"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
)

// This file holds what the driver keeps of an operation's calls for the
// history: an actor's own calls out of a container's record, and the
// reads of pushRev the local store answered.

// byActor returns the calls one actor made: calls itself when the actor
// made all of them (the usual case: one actor per backend at a time), read
// only and clipped so that an append copies; otherwise a copy in *buf,
// which it reuses.
func byActor(buf *[]faults.Call, calls []faults.Call, actor string) []faults.Call {
	all := true
	for i := range calls {
		if calls[i].Actor != actor {
			all = false
			break
		}
	}
	if all {
		return slices.Clip(calls)
	}
	*buf = appendByActor((*buf)[:0], calls, actor)
	return *buf
}

// callBufs holds the judge's buffers of one actor's calls (Host.actorCalls)
// between runs: a run grows its buffer to the longest operation's calls,
// tens of kilobytes, and a sweep would otherwise do so at every seed.
var callBufs sync.Pool

// getCallBuf returns an empty buffer, reused when a finished run left one.
func getCallBuf() []faults.Call {
	if p, ok := callBufs.Get().(*[]faults.Call); ok {
		return (*p)[:0]
	}
	return nil
}

// putCallBuf hands buf on to a later run. Nothing may read it afterwards.
func putCallBuf(buf []faults.Call) {
	if cap(buf) > 0 {
		clear(buf[:cap(buf)]) // drop what the calls point to
		buf = buf[:0]
		callBufs.Put(&buf)
	}
}

// appendByActor appends to dst the calls one actor made.
func appendByActor(dst, calls []faults.Call, actor string) []faults.Call {
	for _, c := range calls {
		if c.Actor == actor {
			dst = append(dst, c)
		}
	}
	return dst
}

// notePushRevRead is told of every scalar pushRev read that reached the
// local store, with the store's answer (property local-store holds it to
// the store model's).
func (h *Host) notePushRevRead(backend string, rev int64) {
	if slices.Index(h.backends.names, backend) < 0 {
		return // the store probe's own backend
	}
	actor := h.hooks().Actor()
	if h.observed.pushRevReads == nil {
		h.observed.pushRevReads = map[string][]history.PushRevRead{}
	}
	h.observed.pushRevReads[actor] = append(h.observed.pushRevReads[actor], history.PushRevRead{Pos: h.recordPos(backend), Rev: rev})
}

// takePushRevReads returns actor's reads and forgets them (each actor is
// judged once).
func (h *Host) takePushRevReads(actor string) []history.PushRevRead {
	r := h.observed.pushRevReads[actor]
	delete(h.observed.pushRevReads, actor)
	return r
}
