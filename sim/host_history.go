package sim

import (
	"fmt"
	"strings"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// beginHistory starts the run's history and its judge (Config.Judge).
func (h *Host) beginHistory() {
	judge := h.cfg.Judge
	if judge == nil {
		judge = noJudge{}
	}
	syncNone := -1
	for b := range h.backends.names {
		if h.syncNone(b) {
			syncNone = b
		}
	}
	h.hist.Reset(history.Setup{Backends: h.backends.names, PushBatch: h.pushBudget(), SyncNone: syncNone,
		T0: h.t0, Retry: h.opts, Budget: h.budget(), NoScheduler: h.cfg.NoScheduler, TimePrecision: h.cfg.TimePrecision,
		DefaultBudget: h.cfg.Budget == nil},
		hostRecords{h}, judge, hostReporter{h})
	if h.hist.Wants(history.SnapTrace) {
		h.trace.Watch()
	}
}

// appendEvent appends e to the history at the current virtual time.
func (h *Host) appendEvent(e history.Event) {
	e.At = h.clock.Now().Sub(h.t0)
	h.hist.Append(e)
}

// stepEnd appends the end of a step, with the intent store's listing
// (and the trace's records since the last, when a checker asked for
// them), and returns the violation a checker reported at it, if any.
func (h *Host) stepEnd(intents []scheduler.Intent) *Violation {
	h.appendEvent(history.Event{Kind: history.StepEnd, Intents: intents, Trace: h.trace.Unread()})
	return h.violated
}

// runEnd appends the end of the run's checks and returns the violation a
// checker reported at it, if any.
func (h *Host) runEnd() *Violation {
	h.appendEvent(history.Event{Kind: history.RunEnd, Trace: h.trace.Unread()})
	return h.violated
}

// driverFailed records a failure of the run itself (history.DriverFailed:
// a panic, a deadlock, a livelock, an escaped timer) and returns the run's
// violation, which oracle.DriverChecker reports. The history's judge is
// built before anything can fail (NewHost begins it first), so only a host
// whose building failed has none, and then the violation is kept as is.
func (h *Host) driverFailed(property, detail string) *Violation {
	if h.violated != nil {
		return h.violated
	}
	h.appendEvent(history.Event{Kind: history.DriverFailed, Driver: &history.DriverFailure{Property: property, Detail: detail}})
	if h.violated == nil {
		return h.fail(property, detail)
	}
	return h.violated
}

// checkedIntents returns the intent listing the last step's check took
// (its StepEnd event's), and false before the first.
func (h *Host) checkedIntents() ([]scheduler.Intent, bool) {
	for e := range h.hist.Backward() {
		if e.Kind == history.StepEnd {
			return e.Intents, true
		}
	}
	return nil, false
}

// History returns the run's history so far.
func (h *Host) History() *history.History { return &h.hist }

// hostReporter turns what the judge reports into the run's violation and
// reach counts.
type hostReporter struct{ h *Host }

func (r hostReporter) Violate(property, detail string) { r.h.fail(property, detail) }

func (r hostReporter) Reach(what string) {
	switch {
	case strings.HasPrefix(what, history.ReachRetry):
		r.h.stats.Retry[what[len(history.ReachRetry):]]++
	case strings.HasPrefix(what, history.ReachExec):
		r.h.stats.ExecSync[what[len(history.ReachExec):]]++
	case strings.HasPrefix(what, history.ReachSecret):
		r.h.stats.Secrets[what[len(history.ReachSecret):]]++
	default:
		r.h.stats.Faults[what]++
	}
}

// hostRecords lends the judge the fault wrappers' records.
type hostRecords struct{ h *Host }

func (r hostRecords) RuntimeSince(b, mark int) []faults.Call { return r.h.recordSince(b, mark) }

func (r hostRecords) StoreSince(mark int) []faults.StoreCall { return r.h.stores.sched.CallsView(mark) }

func (r hostRecords) SpanImage(id string) (string, bool) { return r.h.spanImage(id) }

// containerMarks returns every container's record position.
func (h *Host) containerMarks() []int {
	marks := make([]int, len(h.backends.containers))
	for i, c := range h.backends.containers {
		marks[i] = c.Mark()
	}
	return marks
}

// opReturned appends operation f's return, with calls (its own runtime
// calls since its step began, local-store faults inserted), and returns
// the violation a checker reported at it, if any. The trace shows the
// result first (the line the event renders to).
func (h *Host) opReturned(f finished, calls []faults.Call) *Violation {
	h.traceResult(f)
	var commands []faults.Execution
	if f.kind == "exec" {
		commands = h.backends.containers[f.backend].ExecsOf(f.actor)
	}
	cur, err := h.fetchCursorAtReturn(f)
	if err != nil {
		return h.failStore("durability", err)
	}
	h.appendEvent(history.Event{Kind: history.OpReturned, Actor: f.actor, Backend: f.backend, Op: &history.Op{
		Kind: f.kind, Mode: f.mode, Path: f.path, Size: f.size, Version: f.version,
		Exec: f.exec, Retry: f.retry, Pull: f.pull, Err: f.err,
		CancelHit: h.ops.hit[f.actor], Cancelled: h.ops.cancelled[f.actor],
		Calls: calls, Commands: commands, StepMarks: f.marks, Stored: f.stored,
		StoreMark: f.storeMark, Begun: f.begun, PushRevReads: h.takePushRevReads(f.actor), FetchCursor: cur,
	}})
	return h.violated
}

// traceResult writes the line a finished operation's result renders to:
// what a cancelled one returned, or a retry's, an exec's or a pull's
// result (a host write's return is the write's own line).
func (h *Host) traceResult(f finished) {
	switch {
	case h.ops.cancelled[f.actor]:
		h.event(f.actor, "cancelled", "err="+oneWord(fmt.Sprint(f.err)))
	case f.kind == "retry":
		h.event(f.actor, "retry-result", describeRetry(f.retry, f.err, h.t0)...)
	case f.kind == "exec":
		h.event(f.actor, "exec-result", describeExec(f.exec, f.err)...)
	case f.kind == "pull":
		h.event(f.actor, "pull-result", describePull(f.pull, f.err)...)
	}
}

// fetchCursorAtReturn reads backend f.backend's fetch cursor for property
// complete-at-target when f returned a complete sync result on a backend
// whose log held through the step (so the cursor cannot have moved back
// since its pull) and that syncs; nil otherwise.
func (h *Host) fetchCursorAtReturn(f finished) (*scheduler.Cursor, error) {
	complete := f.err == nil && (f.kind == "retry" && f.retry.Status == workspace.RetryComplete ||
		f.kind == "exec" && f.mode != workspace.SyncDefer && f.exec.Sync.Status == workspace.SyncComplete ||
		f.kind == "pull")
	if !complete || h.ops.cancelled[f.actor] || h.syncNone(f.backend) || !h.backends.containers[f.backend].Survived() || h.ledgers.served.HasMoved(f.backend) {
		return nil, nil
	}
	cur, err := h.stores.store.FetchCursor(h.backends.names[f.backend])
	if err != nil {
		return nil, fmt.Errorf("local store FetchCursor(%s): %w", h.backends.names[f.backend], err)
	}
	return &cur, nil
}

// noJudge judges nothing: a Host without Config.Judge reports only its
// own failures.
type noJudge struct{}

func (noJudge) Reads() history.Kinds                     { return 0 }
func (noJudge) Snapshots() history.Snapshots             { return 0 }
func (noJudge) Begin(history.Setup, history.Records)     {}
func (noJudge) Observe(*history.Event, history.Reporter) {}
