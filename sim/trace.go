package sim

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/syncsim/syncsim/sim/event"
)

// Trace records one deterministic event per simulation event and hashes
// every one it is given, in order. It keeps events encoded
// (event.Record), not as text: a line is rendered only when someone reads
// the trace (Lines, Events, WriteTo, the report of a failure), so a
// passing seed of a sweep renders none. A line is the rendering of an
// event.Event (Event.AppendText) and reads
//
//	+0000012.345 actor event key=value key=value
//
// where the first field is the virtual time since the trace's start in
// seconds with millisecond precision (truncated, zero-padded to a fixed
// width; a run longer than 9,999,999 s widens it), the actor is "-" for the
// driver, and the details are sorted so that callers may build them in any
// order (from a map, say) without changing the text. Events returns the
// kept lines read back as events (event.ParseEvent).
//
// Header lines (the swarm profile, the seed) come first and must all be added
// before the first event. Hash is the hex SHA-256 over every header line
// ("\n"-terminated) and every event's record, in order: two runs of one
// seed must give the same Hash, and FirstDiff locates where their lines
// part.
//
// Keep(n) bounds memory on long sweeps: only the last n events are held for
// Lines and WriteTo while the hash still covers all of them (Keep(0): hash
// only).
//
// A Trace is not safe for concurrent use. Under the actor runtime only one
// goroutine runs at a time and hand-offs order its calls.
type Trace struct {
	start   time.Time
	headers []string
	// Every event is written once, straight into log, as an event.Record:
	// log[:hashed] has been given to hasher, the rest is pending (SHA-256
	// is fed in batches of a few KiB, not one short record per call, since
	// each call pays a fixed cost of its own; Hash flushes). starts holds
	// where the kept records start in log: every one without Keep; with
	// Keep(n > 0) the last n, as a ring whose oldest entry is at head once
	// it is full. The kept records stay where they were written (a sweep
	// adds millions and reads almost none), and a flush moves them to the
	// front of log only once they are a small part of it (compact).
	log     []byte
	hashed  int
	starts  []int
	head    int
	keep    int  // with limited: how many events to hold
	limited bool // Keep was called
	count   int  // events added
	hasher  hash.Hash
	// watching: log keeps the records from read on for Unread (Watch),
	// even hashed and kept by no one.
	watching bool
	read     int
	scratch  []string // reused sorted copy of details
}

// NewTrace returns an empty trace whose times are printed relative to start.
func NewTrace(start time.Time) *Trace {
	return &Trace{start: start, hasher: sha256.New(), log: getLog()}
}

// logPool holds the logs of sealed traces for the next trace to write
// into. A bounded trace's log grows, doubling, to about four times its kept
// records before compact keeps it level, so a fresh log per run costs a
// sweep several allocations that add up to tens of KiB per seed; a reused
// one has its size already.
var logPool sync.Pool

func getLog() []byte {
	if p, ok := logPool.Get().(*[]byte); ok {
		return (*p)[:0]
	}
	return make([]byte, 0, hashBatch+hashBatch/2)
}

// seal ends the trace's writing phase (Host.Close): the pending records
// are hashed, the kept ones move to a buffer of their exact size, and the
// log goes back to logPool. Everything reads as before, and an event added
// afterwards still lands (the small buffer grows).
func (t *Trace) seal() {
	t.flushHash()
	t.watching = false // the run's checks are over
	from := t.hashed
	if len(t.starts) > 0 {
		from = t.oldestKept()
	}
	old := t.log
	t.log = append([]byte(nil), old[from:]...)
	t.hashed -= from
	for i := range t.starts {
		t.starts[i] -= from
	}
	if cap(old) <= maxPooledLog {
		logPool.Put(&old)
	}
}

// maxPooledLog bounds the logs kept for reuse: a trace of long record
// lines grows one far larger than a default run needs.
const maxPooledLog = 256 << 10

// Header adds a line printed before every event line. It panics once an event
// has been added: the hash is built incrementally in print order.
func (t *Trace) Header(line string) {
	if t.count > 0 {
		panic("sim: Trace.Header after the first Add; add every header before the first event")
	}
	line = string(event.AppendOneLine(nil, line))
	t.headers = append(t.headers, line)
	t.hasher.Write([]byte(line + "\n"))
}

// Keep limits the events held in memory to the last n; n == 0 keeps none
// (hash only) and n < 0 keeps all again (the default). The hash, Len and
// Dropped still count every event. Call it before the first Add.
func (t *Trace) Keep(n int) {
	if t.count > 0 {
		panic("sim: Trace.Keep after the first Add")
	}
	t.keep, t.limited = n, n >= 0
}

// Add records one event at virtual time at. actor is "" for the driver.
// details are "key=value" strings; they are printed sorted. Any field holding
// a newline is quoted when printed so that an event is always exactly one
// line.
func (t *Trace) Add(at time.Time, actor, kind string, details ...string) {
	b, start := t.begin(at, actor, kind)
	switch len(details) {
	case 0:
	case 1:
		b = event.AppendRecordField(b, details[0])
	default:
		t.scratch = append(t.scratch[:0], details...)
		slices.Sort(t.scratch)
		for _, d := range t.scratch {
			b = event.AppendRecordField(b, d)
		}
		clear(t.scratch)
	}
	t.commit(b, start)
}

// addDetailBytes is Add with exactly one detail given as bytes: the host's
// record lines, rendered into a reused buffer, pass through without
// becoming a string first. The event is the one Add(at, actor, kind,
// string(detail)) would record.
func (t *Trace) addDetailBytes(at time.Time, actor, kind string, detail []byte) {
	b, start := t.begin(at, actor, kind)
	t.commit(event.AppendRecordField(b, detail), start)
}

// begin starts a record at the end of log: time offset, actor and kind.
// The caller appends the details and hands the result to commit.
func (t *Trace) begin(at time.Time, actor, kind string) ([]byte, int) {
	if actor == "" {
		actor = "-"
	}
	return event.BeginRecord(t.log, at.Sub(t.start), actor, kind)
}

// Watch makes the trace hold every event written from now on until Unread
// hands it out, whether or not Keep holds it: a checker reads what the
// harness printed (property secrecy: no credential may reach it).
func (t *Trace) Watch() { t.watching, t.read = true, len(t.log) }

// Unread returns the events written since the last Unread (or Watch), as
// records (event.NextRecord splits them, Record.AppendText renders one),
// and forgets them. The slice is the trace's own: valid until the next
// event is added.
func (t *Trace) Unread() []byte {
	if !t.watching {
		return nil
	}
	b := t.log[t.read:]
	t.read = len(t.log)
	return b
}

// commit ends the record begin started at start: b is log with the record
// appended. It keeps the record as Keep says and hashes pending records
// once there are enough.
func (t *Trace) commit(b []byte, start int) {
	t.log = event.EndRecord(b, start)
	t.count++
	switch {
	case !t.limited:
		t.starts = append(t.starts, start)
	case t.keep == 0:
	case len(t.starts) < t.keep:
		if t.starts == nil {
			t.starts = make([]int, 0, t.keep)
		}
		t.starts = append(t.starts, start)
	default:
		t.starts[t.head] = start
		t.head = (t.head + 1) % t.keep
	}
	if len(t.log)-t.hashed >= hashBatch {
		t.flushHash()
	}
}

// oldestKept is where the oldest kept record starts in log.
func (t *Trace) oldestKept() int {
	if !t.limited {
		return t.starts[0]
	}
	return t.starts[t.head%len(t.starts)]
}

// kept renders the kept events' lines, oldest first.
func (t *Trace) kept() []string {
	out := make([]string, 0, len(t.starts))
	var line []byte
	for _, part := range [2][]int{t.starts[t.head:], t.starts[:t.head]} {
		for _, start := range part {
			r, _, _ := event.NextRecord(t.log[start:])
			line = r.AppendText(line[:0])
			out = append(out, string(line))
		}
	}
	return out
}

// Headers returns the header lines, in order.
func (t *Trace) Headers() []string { return slices.Clone(t.headers) }

// Events returns the kept events, oldest first: each rendered line read
// back by event.ParseEvent, so the text printed and the events are one
// thing. The events are kept encoded (a bounded ring on sweeps, which read
// almost none of them) and rendered only here and in Lines.
func (t *Trace) Events() []event.Event {
	kept := t.kept()
	out := make([]event.Event, len(kept))
	for i, l := range kept {
		e, err := event.ParseEvent(l)
		if err != nil {
			// Every kept record renders to a line ParseEvent reads by
			// construction (TestEventRoundTrip*, TestRecordRendersTheLine).
			panic("sim: the trace kept an event whose line does not read back: " + err.Error())
		}
		out[i] = e
	}
	return out
}

// Lines returns the header lines followed by the kept event lines, oldest
// first. Without Keep that is every event the hash covers.
func (t *Trace) Lines() []string {
	kept := t.kept()
	out := make([]string, 0, len(t.headers)+len(kept))
	out = append(out, t.headers...)
	return append(out, kept...)
}

// Len is the number of events added (headers not counted).
func (t *Trace) Len() int { return t.count }

// Dropped is the number of events no longer held because of Keep.
func (t *Trace) Dropped() int { return t.count - len(t.starts) }

// Hash returns the hex SHA-256 over every header line and every event's
// record added so far. Adding more events afterwards continues the hash.
func (t *Trace) Hash() string {
	t.flushHash()
	return hex.EncodeToString(t.hasher.Sum(nil))
}

// hashBatch is the size at which pending records are hashed.
const hashBatch = 2 << 10

// flushHash hashes the pending records.
func (t *Trace) flushHash() {
	t.hasher.Write(t.log[t.hashed:])
	t.hashed = len(t.log)
	t.compact()
}

// compact drops the hashed records no one keeps from log. When records
// are kept, it moves them to the front only once they are at most a
// quarter of log, so that each byte is moved a third of a time on average
// rather than at every flush.
func (t *Trace) compact() {
	from := t.hashed
	if len(t.starts) > 0 {
		from = min(from, t.oldestKept())
	}
	if t.watching {
		from = min(from, t.read) // the records Unread has not handed out
	}
	if from < len(t.log)*3/4 {
		return
	}
	n := copy(t.log, t.log[from:])
	t.log = t.log[:n]
	t.hashed -= from
	if t.watching {
		t.read -= from
	}
	for i := range t.starts {
		t.starts[i] -= from
	}
}

// WriteTo writes Lines, one per "\n"-terminated line, and ends with the line
// "trace-hash <Hash> lines=<header and event lines>". When Keep dropped
// events, a line "... <n> earlier lines not kept" stands between the
// headers and the kept lines; neither extra line is part of the hash.
func (t *Trace) WriteTo(w io.Writer) (int64, error) {
	var sb strings.Builder
	for _, h := range t.headers {
		sb.WriteString(h)
		sb.WriteByte('\n')
	}
	if d := t.Dropped(); d > 0 {
		sb.WriteString("... " + strconv.Itoa(d) + " earlier lines not kept\n")
	}
	for _, l := range t.kept() {
		sb.WriteString(l)
		sb.WriteByte('\n')
	}
	sb.WriteString("trace-hash " + t.Hash() + " lines=" + strconv.Itoa(len(t.headers)+t.count) + "\n")
	n, err := io.WriteString(w, sb.String())
	return int64(n), err
}

// FirstDiff compares two traces line by line (as from two runs of one seed)
// and returns the index of the first line that differs and both lines. When
// one trace is a prefix of the other, index is the shorter length and the
// missing side's line is "". differ is false when the traces are equal.
func FirstDiff(a, b []string) (index int, lineA, lineB string, differ bool) {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i, a[i], b[i], true
		}
	}
	switch {
	case len(a) > n:
		return n, a[n], "", true
	case len(b) > n:
		return n, "", b[n], true
	}
	return 0, "", "", false
}
