package faults

import (
	"slices"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/syncsim/syncsim/scheduler"
)

// Op names one kind of call in the runtime's record. Hooks.Block points
// use the same names.
type Op string

// The ops of the record.
const (
	OpConnect     Op = "connect"
	OpRuntimeID   Op = "runtime-id"
	OpFetch       Op = "fetch"
	OpStreamNext  Op = "stream-next"
	OpStreamClose Op = "stream-close"
	OpWatermarks  Op = "watermarks"
	OpPush        Op = "push"
	OpExec        Op = "exec"
	OpEventNext   Op = "event-next"
	OpEventClose  Op = "event-close"
	OpClose       Op = "close"
	OpSync        Op = "sync" // the actor took the connection's sync channel (conn.Sync says why it is recorded)
	// OpLocalStore is never recorded by a container: it stands for an
	// injected local-store fault (LocalStore) that a judge places among an
	// actor's runtime calls. It fails the stream it names, if any.
	OpLocalStore Op = "local-store"
)

// Call is one call the workspace made into the runtime, as recorded.
// Fields that do not apply to Op are zero.
type Call struct {
	Seq   int // position in this container's record, from 1
	Actor string
	Op    Op
	// Conn is the connection id (from 1); 0 for a Connect that failed.
	Conn int
	// RuntimeID is the id the connection reports; HasRuntimeID is false
	// when it reports none.
	RuntimeID    string
	HasRuntimeID bool
	// Stream is the change stream (fetch, stream-*) or event stream (exec,
	// event-*) id, from 1.
	Stream int

	// Inputs.
	After   scheduler.Cursor  // fetch
	Through *scheduler.Cursor // fetch
	Settle  bool              // watermarks
	Command string            // exec
	Sender  scheduler.Cursor  // push: the sender cursor (defaulted)
	Changes int               // push: changes sent
	// PushBytes is the content size of the changes sent (deletes count
	// 0): what a push byte budget counts (SPEC 6.5). Not printed.
	PushBytes int64
	// FirstChange is the stream position of the oldest change a push sent
	// (zero when it sent none), whatever order they came in. Not printed.
	FirstChange scheduler.Cursor
	// LogEpoch is the container's LogEpoch when the call arrived (push
	// only): whether the remote's log was emptied between two pushes. Not
	// printed.
	LogEpoch int
	// At is the clock reading when the call was recorded, after its
	// blocking point (zero without Container.SetClock): what a wall-time
	// budget is judged by. Not printed.
	At time.Time

	// Outputs.
	CurrentCursor     scheduler.Cursor // fetch
	AppliedPushCursor scheduler.Cursor // fetch, push
	CurrentRev        int64            // fetch, watermarks, push: after the call
	Entry             *scheduler.Cursor
	Entries           int // stream-next: entries served on the stream so far
	// EntryBytes is the content size of the entry served (0 for a delete):
	// what a byte budget counts (SPEC 6.4). Not printed: the trace shows
	// the entry, the judge predicts the budget from this.
	EntryBytes int64
	// EntryDeleted marks an entry that is a delete (printed " deleted"
	// after it: a delete and an empty file both carry no bytes).
	EntryDeleted bool
	EOF          bool // stream-next, event-next: end reached
	Applied      int  // push
	ExitCode     int  // event-next of the exit event
	Relaunched   bool // connect: relaunched a crashed container

	// Fault is the kind injected by this very call (NoFault when none;
	// errors on an already broken connection carry NoFault here).
	Fault Kind
	// Armed: Fault was armed by Container.Arm rather than drawn.
	Armed bool
	Err   string
	// Transport and PreDispatch say how SPEC 5.2 must classify Err: a
	// transport failure, and one provably before dispatch. They come from
	// the failure the harness made, never from the workspace. Not printed.
	Transport, PreDispatch bool
	// Unclassed: a transport failure the harness shaped so that its class
	// sits past SPEC 5.2's 8 levels: by the SPEC not a transport failure
	// (Transport is false), though the connection did die. Not printed.
	Unclassed bool
	// Lost: the failure carries code EEXEC_LOST (lostcode.go), which SPEC
	// 4 turns into "lost" for an intent with a runtime id. Not printed.
	Lost bool
}

// classify records the class of the failure err.
func (c *Call) classify(err error) {
	class := classOfError(err)
	c.Transport, c.PreDispatch = class != classNone, class == classPreDispatch
	c.Unclassed = unclassedError(err)
	c.Lost = lostCoded(err)
}

// String renders the call on one stable line.
func (c Call) String() string { return string(c.AppendText(make([]byte, 0, 96))) }

// AppendText appends String's line to b. It is the record's hot path (one
// trace line per call), so it appends with strconv instead of fmt; the text
// is byte-for-byte what the fmt verbs gave (%d, %s, %t, %q).
func (c Call) AppendText(b []byte) []byte {
	return c.appendBody(appendSeqActor(b, c.Seq, c.Actor))
}

// AppendTrace appends the call as the simulator's trace prints it: String's
// line without the actor, which the trace line names already.
func (c Call) AppendTrace(b []byte) []byte {
	return c.appendBody(appendSeq(b, c.Seq))
}

// appendSeq appends "#<seq> ".
func appendSeq(b []byte, seq int) []byte {
	b = append(b, '#')
	b = strconv.AppendInt(b, int64(seq), 10)
	return append(b, ' ')
}

// appendSeqActor appends "#<seq> <actor> ".
func appendSeqActor(b []byte, seq int, actor string) []byte {
	b = append(appendSeq(b, seq), actor...)
	return append(b, ' ')
}

// appendBody appends everything after the sequence number and actor.
func (c Call) appendBody(b []byte) []byte {
	b = append(b, c.Op...)
	b = append(b, " conn "...)
	b = strconv.AppendInt(b, int64(c.Conn), 10)
	if c.Conn != 0 {
		if c.HasRuntimeID {
			b = append(b, " rt "...)
			b = append(b, c.RuntimeID...)
		} else {
			b = append(b, " rt none"...)
		}
	}
	if c.Stream != 0 {
		b = append(b, " stream "...)
		b = strconv.AppendInt(b, int64(c.Stream), 10)
	}
	switch c.Op {
	case OpConnect:
		if c.Relaunched {
			b = append(b, " relaunched"...)
		}
	case OpFetch:
		b = append(b, " after "...)
		b = appendCursor(b, c.After)
		if c.Through != nil {
			b = append(b, " through "...)
			b = appendCursor(b, *c.Through)
		}
		if c.Err == "" {
			b = append(b, " current "...)
			b = appendCursor(b, c.CurrentCursor)
			b = append(b, " appliedPush "...)
			b = appendCursor(b, c.AppliedPushCursor)
			b = append(b, " rev "...)
			b = strconv.AppendInt(b, c.CurrentRev, 10)
		}
	case OpStreamNext:
		if c.Entry != nil {
			b = append(b, " entry "...)
			b = appendCursor(b, *c.Entry)
			if c.EntryDeleted {
				b = append(b, " deleted"...)
			}
		}
		b = append(b, " served "...)
		b = strconv.AppendInt(b, int64(c.Entries), 10)
		if c.EOF {
			b = append(b, " eof"...)
		}
	case OpWatermarks:
		b = append(b, " settle "...)
		b = strconv.AppendBool(b, c.Settle)
		if c.Err == "" {
			b = append(b, " rev "...)
			b = strconv.AppendInt(b, c.CurrentRev, 10)
		}
	case OpPush:
		b = append(b, " sender "...)
		b = appendCursor(b, c.Sender)
		b = append(b, " changes "...)
		b = strconv.AppendInt(b, int64(c.Changes), 10)
		if c.Err == "" || c.Fault == TransportPostDispatch {
			b = append(b, " applied "...)
			b = strconv.AppendInt(b, int64(c.Applied), 10)
			b = append(b, " appliedPush "...)
			b = appendCursor(b, c.AppliedPushCursor)
			b = append(b, " rev "...)
			b = strconv.AppendInt(b, c.CurrentRev, 10)
		}
	case OpExec:
		b = append(b, ' ')
		b = appendQuoted(b, c.Command)
	case OpEventNext:
		if c.EOF {
			b = append(b, " eof"...)
		} else if c.Err == "" {
			b = append(b, " served "...)
			b = strconv.AppendInt(b, int64(c.Entries), 10)
		}
	}
	return appendFault(b, c.Fault, c.Armed, c.Err)
}

// AppendText appends StoreCall.String's line to b, with strconv instead
// of fmt: one trace line per store call.
func (sc StoreCall) AppendText(b []byte) []byte {
	return sc.appendBody(appendSeqActor(b, sc.Seq, sc.Actor), appendUnixMilli)
}

// AppendTrace appends the call as the simulator's trace prints it: String's
// line without the actor (the trace line names it already), with an
// intent's NotBefore written by at (the trace's own time format).
func (sc StoreCall) AppendTrace(b []byte, at func([]byte, time.Time) []byte) []byte {
	return sc.appendBody(appendSeq(b, sc.Seq), at)
}

// appendUnixMilli writes t as scheduler.Intent.String does.
func appendUnixMilli(b []byte, t time.Time) []byte { return strconv.AppendInt(b, t.UnixMilli(), 10) }

// appendBody appends everything after the sequence number and actor.
func (sc StoreCall) appendBody(b []byte, at func([]byte, time.Time) []byte) []byte {
	b = append(b, "store-"...)
	b = append(b, sc.Op...)
	b = append(b, ' ')
	b = append(b, sc.Backend...)
	if sc.Op == StoreOpGet && sc.Err == "" && !sc.Found {
		b = append(b, " not-found"...)
	}
	if sc.Intent != nil {
		b = append(b, ' ')
		b = AppendIntent(b, *sc.Intent, at)
	}
	return appendFault(b, sc.Fault, false, sc.Err)
}

// AppendIntent appends scheduler.Intent.String's form without fmt, with
// NotBefore written by at (the simulator's trace passes its time format).
func AppendIntent(b []byte, in scheduler.Intent, at func([]byte, time.Time) []byte) []byte {
	b = append(b, "{backend "...)
	b = append(b, in.Backend...)
	if in.RuntimeID != nil {
		b = append(b, " runtime "...)
		b = append(b, *in.RuntimeID...)
	}
	if in.TargetCursor != nil {
		b = append(b, " target "...)
		b = appendCursor(b, *in.TargetCursor)
	}
	b = append(b, " attempt "...)
	b = strconv.AppendInt(b, int64(in.Attempt), 10)
	b = append(b, " notBefore "...)
	b = at(b, in.NotBefore)
	return append(b, '}')
}

// appendFault appends the " fault <kind>[ armed]" and " err <quoted>" tail
// that runtime and store calls share.
func appendFault(b []byte, k Kind, armed bool, err string) []byte {
	if k != NoFault {
		b = append(b, " fault "...)
		b = append(b, k.String()...)
		if armed {
			b = append(b, " armed"...)
		}
	}
	if err != "" {
		b = append(b, " err "...)
		b = appendQuoted(b, err)
	}
	return b
}

// appendQuoted is strconv.AppendQuote, with a short way for the usual
// field (QuotesAsIs). Every record line quotes its paths, commands and
// errors, and the general path looks at each rune.
func appendQuoted(b []byte, s string) []byte {
	if !QuotesAsIs(s) {
		return strconv.AppendQuote(b, s)
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// QuotesAsIs reports whether strconv.Quote(s) is s itself between double
// quotes: every rune of s is valid UTF-8, printable (strconv.IsPrint) and
// neither a quote nor a backslash. Whoever quotes many texts (record lines
// here, the host's trace details) can then copy them whole instead of
// having strconv append them rune by rune; planted error texts are mostly
// printable non-ASCII (their markers, the past-cut padding).
func QuotesAsIs(s string) bool {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c < ' ' || c > '~' || c == '"' || c == '\\' {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || !strconv.IsPrint(r) {
			return false
		}
		i += n
	}
	return true
}

// CursorText renders c as traces print it, {rev,null} or {rev,"path"}
// (the path quoted as strconv.Quote quotes it): the harness's own
// rendering, written apart from scheduler.Cursor.String, so that a judge
// holding the system under test's messages to it does not take the
// rendering from the code it judges.
func CursorText(c scheduler.Cursor) string { return string(appendCursor(nil, c)) }

// appendCursor appends scheduler.Cursor.String's form, {rev,null} or
// {rev,"path"}, without fmt.
func appendCursor(b []byte, c scheduler.Cursor) []byte {
	b = append(b, '{')
	b = strconv.AppendInt(b, c.Rev, 10)
	if !c.HasPath {
		return append(b, ",null}"...)
	}
	b = append(b, ',')
	b = appendQuoted(b, c.Path)
	return append(b, '}')
}

// recordAll returns every call so far, in order.
func (c *Container) recordAll() []Call {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.record.appendSince(nil, 0)
}

// Mark returns a cursor into the record: RecordSince(Mark()) later returns
// the calls made in between. The simulator takes one per operation.
func (c *Container) Mark() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.record.n
}

// RecordSince returns the calls recorded after mark, in order.
func (c *Container) RecordSince(mark int) []Call {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.record.appendSince(nil, mark)
}

// AppendRecordSince appends the calls recorded after mark to dst, in
// order: RecordSince into a buffer the caller reuses.
func (c *Container) AppendRecordSince(dst []Call, mark int) []Call {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.record.appendSince(dst, mark)
}

// RecordView returns the calls recorded after mark, in order, without
// copying them when they lie in one chunk of the record (the usual case
// for a drain between steps). The result is read-only: it may share the
// record's memory, which is never written again once recorded, and its
// capacity ends at its length, so an append copies.
func (c *Container) RecordView(mark int) []Call {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.record.view(mark)
}

// ReleaseRecord ends the record: its memory goes back to a pool for the
// next container, so every slice RecordView returned is invalid from now
// on, and recording or reading the record again panics. A
// simulated host calls it once its run is over (sim.Host.Close).
func (c *Container) ReleaseRecord() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.record.release()
}

// appendLocked stamps call with its sequence number and records it.
func (c *Container) appendLocked(call Call) {
	call.Seq = c.record.n + 1
	if c.now != nil {
		call.At = c.now()
	}
	c.record.add(call)
}

// callLog is the record, kept in chunks that are never moved once
// allocated. A long scenario records tens of thousands of calls of a few
// hundred bytes each; one growing slice re-copied all of them (with GC
// write barriers) at every doubling, which made a step's cost grow with
// the run's length. Chunks double from minCallChunk up to maxCallChunk
// calls. Each size has a pool: a run hands its chunks back when it is
// over (Container.ReleaseRecord), so a sweep allocates and zeroes them once
// per worker instead of once per run.
type callLog struct {
	chunks   [][]Call
	starts   []int // starts[i] is the position of chunks[i][0]
	n        int
	released bool
}

const (
	// A default scenario records a few hundred calls per container: the
	// first chunk holds them all, so a drain's view (RecordView) never
	// spans two chunks and never copies. Pooled chunks make the size free
	// after a worker's first run.
	minCallChunk = 256
	maxCallChunk = 1024
	chunkSizes   = 3 // minCallChunk << (chunkSizes-1) == maxCallChunk
)

// chunkPools[k] holds empty record chunks of capacity minCallChunk<<k.
var chunkPools [chunkSizes]sync.Pool

// getChunk returns an empty chunk of capacity minCallChunk<<k.
func getChunk(k int) []Call {
	if p, ok := chunkPools[k].Get().(*[]Call); ok {
		return (*p)[:0]
	}
	return make([]Call, 0, minCallChunk<<k)
}

func (l *callLog) add(c Call) {
	l.mustLive()
	if k := len(l.chunks); k == 0 || len(l.chunks[k-1]) == cap(l.chunks[k-1]) {
		l.chunks = append(l.chunks, getChunk(min(k, chunkSizes-1)))
		l.starts = append(l.starts, l.n)
	}
	last := &l.chunks[len(l.chunks)-1]
	*last = append(*last, c)
	l.n++
}

func (l *callLog) mustLive() {
	if l.released {
		panic("faults: the record was used after ReleaseRecord")
	}
}

// release hands the chunks back to their pools, cleared (a pooled chunk
// must not keep a finished run's strings alive). The log is unusable
// afterwards.
func (l *callLog) release() {
	for i, ch := range l.chunks {
		clear(ch)
		ch = ch[:0]
		chunkPools[min(i, chunkSizes-1)].Put(&ch)
	}
	l.chunks, l.starts, l.released = nil, nil, true
}

// view is appendSince without the copy when the calls after mark lie in
// the last chunk.
func (l *callLog) view(mark int) []Call {
	l.mustLive()
	mark = min(max(mark, 0), l.n)
	if mark == l.n {
		return nil
	}
	last := len(l.chunks) - 1
	if start := l.starts[last]; mark >= start {
		ch := l.chunks[last]
		return ch[mark-start : len(ch) : len(ch)]
	}
	return slices.Clip(l.appendSince(nil, mark))
}

// appendSince appends the calls after mark (clamped to the record) to dst.
func (l *callLog) appendSince(dst []Call, mark int) []Call {
	l.mustLive()
	mark = min(max(mark, 0), l.n)
	if mark == l.n {
		return dst
	}
	// The chunk holding mark: the last one starting at or before it.
	i, found := slices.BinarySearch(l.starts, mark)
	if !found {
		i--
	}
	dst = append(dst, l.chunks[i][mark-l.starts[i]:]...)
	for _, ch := range l.chunks[i+1:] {
		dst = append(dst, ch...)
	}
	return dst
}

// PullRecord summarises one fetchChanges call and the reading of its
// stream, for a reference model that needs to know how a pull ended.
type PullRecord struct {
	FetchSeq     int // Seq of the fetch call
	Actor        string
	Conn         int
	RuntimeID    string // what the fetch's connection reported
	HasRuntimeID bool
	After        scheduler.Cursor
	Through      *scheduler.Cursor
	// CurrentCursor is the fetch's snapshot bound (zero if the fetch failed).
	CurrentCursor scheduler.Cursor
	// FetchErr is set when fetchChanges itself failed (no stream then).
	FetchErr   string
	FetchFault Kind
	// Entries served by the stream, and how reading it ended: EOF reached,
	// closed by the client before EOF, or failed (StreamErr, StreamFault).
	// None of the three means the stream is still open.
	Entries     int
	EOF         bool
	ClosedEarly bool
	StreamErr   string
	StreamFault Kind
}

// pullsSince summarises every fetch actor made after mark, in order; an empty
// actor matches every actor.
func (c *Container) pullsSince(mark int, actor string) []PullRecord {
	return SummarisePulls(c.RecordSince(mark), actor)
}

// SummarisePulls is Pulls over calls already taken from a record.
func SummarisePulls(calls []Call, actor string) []PullRecord {
	var out []PullRecord
	index := make(map[int]int) // stream id -> position in out
	for _, call := range calls {
		if actor != "" && call.Actor != actor {
			continue
		}
		switch call.Op {
		case OpFetch:
			pr := PullRecord{
				FetchSeq: call.Seq, Actor: call.Actor, Conn: call.Conn,
				RuntimeID: call.RuntimeID, HasRuntimeID: call.HasRuntimeID,
				After: call.After, Through: call.Through, CurrentCursor: call.CurrentCursor,
				FetchErr: call.Err, FetchFault: call.Fault,
			}
			if call.Stream != 0 {
				index[call.Stream] = len(out)
			}
			out = append(out, pr)
		case OpStreamNext, OpStreamClose, OpLocalStore:
			i, ok := index[call.Stream]
			if !ok {
				continue
			}
			pr := &out[i]
			if pr.EOF || pr.StreamErr != "" || pr.ClosedEarly {
				continue // the stream's ending is already known
			}
			switch {
			case call.Op == OpStreamClose:
				pr.ClosedEarly = true
			case call.Err != "":
				pr.StreamErr, pr.StreamFault = call.Err, call.Fault
			default:
				pr.Entries, pr.EOF = call.Entries, call.EOF
			}
		}
	}
	return out
}

// lastPull summarises the last fetch actor made (an empty actor matches
// every actor); ok is false when there was none.
func (c *Container) lastPull(actor string) (pr PullRecord, ok bool) {
	all := c.pullsSince(0, actor)
	if len(all) == 0 {
		return PullRecord{}, false
	}
	return all[len(all)-1], true
}
