package sim

import (
	"bytes"
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

// Trace records one deterministic line per simulation event and hashes every
// line it is given, in order. A line is the rendering of an event.Event
// (Event.AppendText) and reads
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
// before the first event. Hash is the hex SHA-256 over every line, headers
// included, each terminated by "\n": two runs of one seed must give the same
// Hash, and FirstDiff locates where two traces part.
//
// Keep(n) bounds memory on long sweeps: only the last n event lines are held
// for Lines and WriteTo while the hash still covers all of them (Keep(0): hash
// only).
//
// A Trace is not safe for concurrent use. Under the actor runtime only one
// goroutine runs at a time and hand-offs order its calls.
type Trace struct {
	start   time.Time
	headers []string
	// Every line is written once, straight into log, '\n'-terminated:
	// log[:hashed] has been given to hasher, the rest is pending (SHA-256
	// is fed in batches of a few KiB, not one short line per call, since
	// each call pays a fixed cost of its own; Hash flushes). Without
	// Keep, lines also holds every event line as a string. With Keep(n >
	// 0), starts holds where the last n event lines start in log, as a
	// ring whose oldest entry is at head once it is full: the kept lines
	// stay where they were written (a sweep adds millions of lines and
	// reads almost none of them), and a flush moves them to the front of
	// log only once they are a small part of it (compact).
	lines     []string
	log       []byte
	hashed    int
	starts    []int
	head      int
	lineStart int  // where the line being written starts in log
	keep      int  // with limited: how many event lines to hold
	limited   bool // Keep was called
	count     int  // event lines added
	hasher    hash.Hash
	// watching: log keeps the lines from read on for Unread (Watch), even
	// hashed and kept by no one.
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
// lines before compact keeps it level, so a fresh log per run costs a
// sweep several allocations that add up to tens of KiB per seed; a reused
// one has its size already.
var logPool sync.Pool

func getLog() []byte {
	if p, ok := logPool.Get().(*[]byte); ok {
		return (*p)[:0]
	}
	return make([]byte, 0, hashBatch+hashBatch/2)
}

// seal ends the trace's writing phase (Host.Close): the pending lines are
// hashed, the kept lines move to a buffer of their exact size, and the log
// goes back to logPool. Everything reads as before, and a line added
// afterwards still lands (the small buffer grows).
func (t *Trace) seal() {
	t.flushHash()
	t.watching = false // the run's checks are over
	from := t.hashed
	if len(t.starts) > 0 {
		from = t.starts[t.head%len(t.starts)] // the oldest kept line
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
	t.hash(line)
}

// Keep limits the event lines held in memory to the last n; n == 0 keeps
// none (hash only) and n < 0 keeps all again (the default). The hash, Len and
// Dropped still count every line. Call it before the first Add.
func (t *Trace) Keep(n int) {
	if t.count > 0 {
		panic("sim: Trace.Keep after the first Add")
	}
	t.keep, t.limited = n, n >= 0
}

// Add records one event at virtual time at. actor is "" for the driver.
// details are "key=value" strings; they are printed sorted. Any field holding
// a newline is quoted so that an event is always exactly one line.
func (t *Trace) Add(at time.Time, actor, kind string, details ...string) {
	b := t.appendHead(at, actor, kind)
	switch len(details) {
	case 0:
	case 1:
		b = append(b, ' ')
		b = event.AppendOneLine(b, details[0])
	default:
		t.scratch = append(t.scratch[:0], details...)
		slices.Sort(t.scratch)
		for _, d := range t.scratch {
			b = append(b, ' ')
			b = event.AppendOneLine(b, d)
		}
		clear(t.scratch)
	}
	t.commit(b)
}

// addDetailBytes is Add with exactly one detail given as bytes: the host's
// record lines, rendered into a reused buffer, pass through without
// becoming a string first. The line is the one Add(at, actor, kind,
// string(detail)) would print.
func (t *Trace) addDetailBytes(at time.Time, actor, kind string, detail []byte) {
	b := t.appendHead(at, actor, kind)
	b = append(b, ' ')
	b = event.AppendOneLine(b, detail)
	t.commit(b)
}

// appendHead starts a line at the end of log: time offset, actor and kind.
// The caller appends the rest and hands the result to commit.
func (t *Trace) appendHead(at time.Time, actor, kind string) []byte {
	if actor == "" {
		actor = "-"
	}
	t.lineStart = len(t.log)
	return event.AppendHead(t.log, at.Sub(t.start), actor, kind)
}

// Watch makes the trace hold every line written from now on until Unread
// hands it out, whether or not Keep holds it: a checker reads the text the
// harness printed (property secrecy: no credential may reach it).
func (t *Trace) Watch() { t.watching, t.read = true, len(t.log) }

// Unread returns the lines written since the last Unread (or Watch),
// each "\n"-terminated, and forgets them. The slice is the trace's own:
// valid until the next line is added.
func (t *Trace) Unread() []byte {
	if !t.watching {
		return nil
	}
	b := t.log[t.read:]
	t.read = len(t.log)
	return b
}

// commit ends the line appendHead started: b is log with the line
// appended. It terminates the line, keeps it as Keep says and hashes
// pending lines once there are enough.
func (t *Trace) commit(b []byte) {
	line := b[t.lineStart:]
	t.count++
	switch {
	case !t.limited:
		t.lines = append(t.lines, string(line))
	case t.keep == 0:
	case len(t.starts) < t.keep:
		if t.starts == nil {
			t.starts = make([]int, 0, t.keep)
		}
		t.starts = append(t.starts, t.lineStart)
	default:
		t.starts[t.head] = t.lineStart
		t.head = (t.head + 1) % t.keep
	}
	t.log = append(b, '\n')
	if len(t.log)-t.hashed >= hashBatch {
		t.flushHash()
	}
}

// kept returns the kept event lines, oldest first.
func (t *Trace) kept() []string {
	if !t.limited {
		return t.lines
	}
	out := make([]string, 0, len(t.starts))
	for _, part := range [2][]int{t.starts[t.head:], t.starts[:t.head]} {
		for _, start := range part {
			line := t.log[start:]
			out = append(out, string(line[:bytes.IndexByte(line, '\n')]))
		}
	}
	return out
}

// Headers returns the header lines, in order.
func (t *Trace) Headers() []string { return slices.Clone(t.headers) }

// Events returns the kept event lines as events, oldest first: each line
// read back by event.ParseEvent, so the text printed, the hash and the events
// are one thing. The lines are kept as text (a bounded ring on sweeps,
// which read almost none of them) and read only here.
func (t *Trace) Events() []event.Event {
	kept := t.kept()
	out := make([]event.Event, len(kept))
	for i, l := range kept {
		e, err := event.ParseEvent(l)
		if err != nil {
			// Every kept line was printed by Add, whose output
			// ParseEvent reads by construction (TestEventRoundTrip*).
			panic("sim: the trace kept a line that does not read back: " + err.Error())
		}
		out[i] = e
	}
	return out
}

// Lines returns the header lines followed by the kept event lines, oldest
// first. Without Keep that is every line the hash covers.
func (t *Trace) Lines() []string {
	kept := t.kept()
	out := make([]string, 0, len(t.headers)+len(kept))
	out = append(out, t.headers...)
	return append(out, kept...)
}

// Len is the number of event lines added (headers not counted).
func (t *Trace) Len() int { return t.count }

// Dropped is the number of event lines no longer held because of Keep.
func (t *Trace) Dropped() int { return t.count - len(t.lines) - len(t.starts) }

// Hash returns the hex SHA-256 over every header and event line added so far,
// each terminated by "\n". Adding more lines afterwards continues the hash.
func (t *Trace) Hash() string {
	t.flushHash()
	return hex.EncodeToString(t.hasher.Sum(nil))
}

// hashBatch is the size at which pending lines are hashed.
const hashBatch = 2 << 10

// flushHash hashes the pending lines.
func (t *Trace) flushHash() {
	t.hasher.Write(t.log[t.hashed:])
	t.hashed = len(t.log)
	t.compact()
}

// compact drops the hashed lines no one keeps from log. When lines are
// kept, it moves them to the front only once they are at most a quarter
// of log, so that each byte is moved a third of a time on average rather
// than at every flush.
func (t *Trace) compact() {
	from := t.hashed
	if len(t.starts) > 0 {
		from = min(from, t.starts[t.head%len(t.starts)]) // the oldest kept line
	}
	if t.watching {
		from = min(from, t.read) // the lines Unread has not handed out
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
// "trace-hash <Hash> lines=<header and event lines>". When Keep dropped event
// lines, a line "... <n> earlier lines not kept" stands between the headers
// and the kept lines; neither extra line is part of the hash.
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

func (t *Trace) hash(line string) {
	t.log = append(append(t.log, line...), '\n')
}
