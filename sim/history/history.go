package history

import (
	"iter"
	"sync"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/workspace"
)

// Setup is what a judge needs to know of the run before its first event:
// facts of the configuration, never of the system under test's decisions.
type Setup struct {
	// Backends are the backend ids, by index.
	Backends []string
	// PushBatch is the workspace's push batch budget, SPEC 6.5's defaults
	// filled in.
	PushBatch workspace.PushBudget
	// SyncNone is the index of the backend whose handles do not sync
	// (SPEC 4, sync "none"), -1 for none.
	SyncNone int
	// T0 is the virtual clock's start: an event's At is since T0, and a
	// time a record or a result carries is absolute.
	T0 time.Time
	// Retry is the workspace's backoff with SPEC 2.2's defaults filled in.
	Retry workspace.RetryOptions
	// Budget is the budget every RetryPendingSync is given.
	Budget workspace.Budget
	// NoScheduler: the workspace was built without an intent store (SPEC
	// 3.3 step 1), so every deferred exec and every retry is refused.
	NoScheduler bool
	// TimePrecision is the granularity at which the intent store keeps
	// NotBefore (0: the nanosecond); tables compare truncated to it.
	TimePrecision time.Duration
	// DefaultBudget: Budget is SPEC 6.4's default (the run configured
	// none).
	DefaultBudget bool
}

// Records gives a judge read access to the fault wrappers' records of the
// run, which the driver owns: the calls are the RuntimeCall and StoreCall
// events' own, and a checker that needs the calls of a span (an operation's
// step) slices them instead of copying every event.
type Records interface {
	// RuntimeSince returns backend b's calls after record position mark.
	// The slice must not be changed nor kept past the next Append.
	RuntimeSince(b, mark int) []faults.Call
	// StoreSince returns the intent-store wrapper's calls after record
	// position mark, of the host's current incarnation (Op.StoreMark).
	// The same rules hold as for RuntimeSince.
	StoreSince(mark int) []faults.StoreCall
}

// Planted is implemented by Records that also lend the planters' records
// (the driver's do): what SPEC 1.4's redactor must leave of a near-miss
// span the harness planted in an injected error.
type Planted interface {
	// SpanImage returns the image of the near-miss span named id
	// (faults.NextSpan) as the planter that planted it recorded it
	// (faults.Secrets.Image); ok is false for an id no planter of the
	// run planted.
	SpanImage(id string) (image string, ok bool)
}

// Snapshots is a set of snapshots of the run's state a judge asks the
// driver to take at an event. The driver takes none that no judge asks for.
type Snapshots uint8

// SnapTrace: StepEnd and RunEnd carry the trace's records written since
// the last of them (Event.Trace).
const SnapTrace Snapshots = 1

// Snapshotter is a Judge that asks for snapshots.
type Snapshotter interface {
	Snapshots() Snapshots
}

// Reporter is how a judge tells the driver what it found.
type Reporter interface {
	// Violate reports that property broke, with a one-paragraph detail.
	// The driver keeps the first report of a run as its violation.
	Violate(property, detail string)
	// Reach counts one occurrence of a situation a property depends on
	// ("push-full-batch"): the sweep's reach table shows what the run
	// exercised. A name ReachRetry+"<status>", ReachExec+"<outcome>" or
	// ReachSecret+"<what>" counts in the sweep's tables of retry
	// statuses, exec outcomes and secrets instead.
	Reach(what string)
}

// The prefixes of the reach names that count in a table of their own.
const (
	ReachRetry  = "retry/"  // a RetryPendingSync status
	ReachExec   = "exec/"   // an exec outcome
	ReachSecret = "secret/" // a redacted or cut result error, a near miss checked
)

// Judge reads a run's history as it is appended.
type Judge interface {
	// Reads is the set of kinds Observe is called for.
	Reads() Kinds
	// Begin is called once per run, before its first event.
	Begin(s Setup, r Records)
	// Observe reads one event; what it finds goes to rep.
	Observe(e *Event, rep Reporter)
}

// History is one run's events, in the order they happened, and the judge
// that reads them. The zero value records and judges nothing until Reset.
type History struct {
	setup Setup
	// The events live in chunks of eventChunkLen, filled in order: a long
	// run appends tens of thousands, and one growing slice copied all of
	// them at every doubling. An event never moves once appended.
	chunks []*eventChunk
	n      int // events appended since Reset
	judge  Judge
	reads  Kinds
	snaps  Snapshots
	rep    Reporter
}

// Reset starts a new run: it forgets the events (keeping their chunks),
// and hands judge (nil for none) the setup. rep receives what the judge
// reports.
func (h *History) Reset(s Setup, r Records, judge Judge, rep Reporter) {
	h.forget()
	h.setup, h.judge, h.rep, h.reads, h.snaps = s, judge, rep, 0, 0
	if judge != nil {
		h.reads = judge.Reads()
		if sn, ok := judge.(Snapshotter); ok {
			h.snaps = sn.Snapshots()
		}
		judge.Begin(s, r)
	}
}

// Wants reports whether the judge asked for snapshot s.
func (h *History) Wants(s Snapshots) bool { return h.snaps&s != 0 }

// Reads reports whether the judge reads kind k: a driver can skip building
// an event nobody reads.
func (h *History) Reads(k Kind) bool { return h.reads.Has(k) }

// Append records e and hands it to the judge when the judge reads its kind.
func (h *History) Append(e Event) {
	ci, i := h.n/eventChunkLen, h.n%eventChunkLen
	if ci == len(h.chunks) {
		h.chunks = append(h.chunks, takeChunk())
	}
	c := h.chunks[ci]
	c[i] = e
	h.n++
	if h.reads.Has(e.Kind) {
		h.judge.Observe(&c[i], h.rep)
	}
}

// eventChunkLen is the number of events in a chunk: a short run's history
// fits in two.
const eventChunkLen = 256

type eventChunk [eventChunkLen]Event

// chunks holds event chunks of finished runs: a sweep runs one history
// after another, and a run appends hundreds of events.
var chunks sync.Pool

func takeChunk() *eventChunk {
	if c, ok := chunks.Get().(*eventChunk); ok {
		return c
	}
	return new(eventChunk)
}

// forget drops the events, and with them the pointers into the last run's
// records, keeping the chunks for the next events.
func (h *History) forget() {
	for ci, c := range h.chunks {
		used := min(h.n-ci*eventChunkLen, eventChunkLen)
		if used <= 0 {
			break
		}
		clear(c[:used])
	}
	h.n = 0
}

// Release ends the run: the history forgets its events and hands its
// chunks to the next run's. The history must not be read afterwards.
func (h *History) Release() {
	h.forget()
	for _, c := range h.chunks {
		chunks.Put(c)
	}
	h.chunks = nil
	h.judge, h.rep, h.reads, h.snaps = nil, nil, 0, 0
}

// Len returns the number of events appended since Reset.
func (h *History) Len() int { return h.n }

// At returns the i-th event appended since Reset (0: the oldest). The
// event is the history's own: read it, do not change or keep it.
func (h *History) At(i int) *Event {
	if i < 0 || i >= h.n {
		panic("history: event index out of range")
	}
	return &h.chunks[i/eventChunkLen][i%eventChunkLen]
}

// Backward yields the events appended since Reset, newest first, until
// the loop stops. The events are the history's own: read them, do not
// change or keep them.
func (h *History) Backward() iter.Seq[*Event] {
	return func(yield func(*Event) bool) {
		for i := h.n - 1; i >= 0; i-- {
			if !yield(h.At(i)) {
				return
			}
		}
	}
}

// Events returns a copy of the events appended since Reset, oldest first:
// for tests and tools that read a whole run (a driver reads At or
// Backward, which copy nothing).
func (h *History) Events() []Event {
	out := make([]Event, 0, h.n)
	for ci := 0; ci*eventChunkLen < h.n; ci++ {
		out = append(out, h.chunks[ci][:min(h.n-ci*eventChunkLen, eventChunkLen)]...)
	}
	return out
}

// Setup returns the run's setup.
func (h *History) Setup() Setup { return h.setup }
