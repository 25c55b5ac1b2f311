package oracle

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
)

// FIFOLedger checks SPEC 11.9 from the intent store's record: mutating
// operations on one backend never overlap. Every read-then-write of an
// intent (schedulePendingSync's get then schedule, RetryPendingSync's get,
// pull, then schedule or clear) runs inside the backend's FIFO, so no other
// actor may write the backend's intent between an actor's get and its own
// write. The check reads only who called what, in order; it needs nothing
// from the workspace.
type FIFOLedger struct {
	gets      map[string]map[string]int // backend -> actor -> Seq of its last get
	lastWrite map[string]storeRef       // backend -> the last schedule or clear
}

type storeRef struct {
	actor string
	seq   int
}

// Reset forgets everything: a host restart cuts every operation, and the
// new store wrapper numbers its calls from 1.
func (l *FIFOLedger) Reset() {
	l.gets = map[string]map[string]int{}
	l.lastWrite = map[string]storeRef{}
}

// Note reads one store call, in record order; it returns a description of
// the overlap when the call is a write that another actor's write preceded
// since this actor's own get. The zero value is ready.
func (l *FIFOLedger) Note(call faults.StoreCall) (string, bool) {
	if l.gets == nil {
		l.Reset()
	}
	switch call.Op {
	case faults.StoreOpGet:
		if l.gets[call.Backend] == nil {
			l.gets[call.Backend] = map[string]int{}
		}
		l.gets[call.Backend][call.Actor] = call.Seq
	case faults.StoreOpSchedule, faults.StoreOpClear:
		prev := l.lastWrite[call.Backend]
		l.lastWrite[call.Backend] = storeRef{call.Actor, call.Seq}
		read, ok := l.gets[call.Backend][call.Actor]
		if ok && prev.actor != call.Actor && prev.seq > read {
			return fmt.Sprintf("%s read %s's intent at store call #%d, then %s wrote it at #%d, before %s's own %s at #%d: two mutations of one backend overlapped (SPEC 11.9)",
				call.Actor, call.Backend, read, prev.actor, prev.seq, call.Actor, call.Op, call.Seq), true
		}
	}
	return "", false
}

// SyncSpans checks SPEC 11.9 from the runtime's record: a pull reads its
// change stream inside its actor's FIFO entry (pullBatch closes the stream
// before it returns), so from an actor's fetch to the close of that stream
// no other actor may fetch from or push to the same backend. Only the
// runtime's record is read: who called what on which stream, in order.
type SyncSpans struct {
	open []streamSpan // per backend; actor "" when no stream is open
}

// streamSpan is an open change stream: its actor, id and fetch call.
type streamSpan struct {
	actor  string
	stream int
	seq    int
}

// Reset forgets every open stream: a host restart cuts every operation.
func (s *SyncSpans) Reset() { clear(s.open) }

// Note reads one runtime call of backend b (named name in the description),
// in record order; it returns a description of the overlap when the call is
// a fetch or push that lands inside another actor's open stream. The zero
// value is ready.
func (s *SyncSpans) Note(b int, name string, call faults.Call) (string, bool) {
	for len(s.open) <= b {
		s.open = append(s.open, streamSpan{})
	}
	span := s.open[b]
	switch call.Op {
	case faults.OpFetch, faults.OpPush:
		if span.actor != "" && span.actor != call.Actor {
			return fmt.Sprintf("%s's %s #%d on %s landed inside %s's change stream %d (fetch #%d, not yet closed): two sync operations of one backend overlapped (SPEC 11.9)",
				call.Actor, call.Op, call.Seq, name, span.actor, span.stream, span.seq), true
		}
		if call.Op == faults.OpFetch && call.Err == "" {
			s.open[b] = streamSpan{actor: call.Actor, stream: call.Stream, seq: call.Seq}
		}
	case faults.OpStreamNext, faults.OpStreamClose:
		// A close ends the span; so does a failed read, after which the
		// stream is dead whether or not the actor closes it.
		if call.Actor == span.actor && call.Stream == span.stream && (call.Op == faults.OpStreamClose || call.Err != "") {
			s.open[b] = streamSpan{}
		}
	}
	return "", false
}
