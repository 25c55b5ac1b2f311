package sim

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/event"
	"github.com/syncsim/syncsim/workspace"
)

var errNoLister = errors.New("sim: the scheduler store does not implement scheduler.Lister; the host needs it to set its alarm")

// judge feeds one finished operation to the model and compares results.
func (h *Host) judge(f finished) *Violation {
	calls := h.withLocalFaults(byActor(&h.actorCalls, h.recordSince(f.backend, f.marks[f.backend]), f.actor), f)
	if v := h.opReturned(f, calls); v != nil {
		return v
	}
	if v, cancelled := h.judgeCancelled(f, calls); cancelled {
		return v
	}
	store := h.storeCalls(f)
	if v := h.judgeSecrecy(f); v != nil {
		return v
	}
	if v := h.judgeErrorText(f); v != nil {
		return v
	}
	if v := h.judgeInvariants(f, calls); v != nil {
		return v
	}
	if v := h.judgeReplay(f, calls); v != nil {
		return v
	}
	if v := h.judgeNoReplay(f, calls); v != nil {
		return v
	}
	if v := h.judgeInvalidate(f, calls); v != nil {
		return v
	}
	if v := h.judgeApplyBatches(f.actor, f.backend, calls, applyBatchOf(f.kind)); v != nil {
		return v
	}
	switch f.kind {
	case "write", "delete":
		if errors.Is(f.err, faults.ErrInjected) {
			return nil // a local-store fault: never acknowledged
		}
		if f.err != nil {
			return h.fail("host-write", f.actor+": "+f.err.Error())
		}
		if h.supersededWrite(f) {
			return nil
		}
		if f.kind == "delete" {
			h.oracle.Acked.Remove(f.backend, f.path)
			h.stats.Faults["host-delete"]++
			return nil
		}
		h.oracle.Acked.AddVersion(f.backend, f.path, f.size, f.version)
		return nil
	case "retry":
		return h.judgeRetry(f, calls, store)
	case "pull":
		return h.judgePull(f, calls, store)
	default:
		return h.judgeExec(f, calls, store)
	}
}

func (h *Host) storeCalls(f finished) []model.StoreCall {
	var out []model.StoreCall
	for _, c := range h.sched.CallsView(f.storeMark) {
		if c.Actor == f.actor {
			out = append(out, model.StoreCall{Op: string(c.Op), Backend: c.Backend, Failed: c.Err != "", At: c.At})
		}
	}
	return out
}

func (h *Host) judgeRetry(f finished, calls []faults.Call, store []model.StoreCall) *Violation {
	b := h.names[f.backend]
	in, had := h.model.Intent(b)
	var fence *string
	if had {
		fence = in.RuntimeID
	}
	pull := pullOutcome(calls, fence, h.budget(), h.wallOf(f))
	next, want, err := h.model.Retry(h.opts, b, h.clock.Now(), pull, store)
	if err != nil {
		return h.fail("model", fmt.Sprintf("%s: %v", f.actor, err))
	}
	h.model = next
	got := f.retry
	if f.err != nil {
		h.stats.Retry["rejected"]++
	} else {
		h.stats.Retry[string(got.Status)]++
		if want.Status == "exhausted" && !want.Pulled {
			h.stats.Retry["exhausted-precheck"]++
		}
	}
	h.event(f.actor, "retry-result", describeRetry(got, f.err, h.t0)...)
	if want.Rejected != (f.err != nil) {
		return h.fail("model", fmt.Sprintf("%s: expected rejected=%t (the model), got %t (err %v)", f.actor, want.Rejected, f.err != nil, f.err))
	}
	if want.Rejected {
		if h.opts.NoScheduler {
			// SPEC 4: rejected before any store call or pull.
			if len(calls) > 0 || !strings.Contains(f.err.Error(), "retryScheduler") {
				return h.fail("model", fmt.Sprintf("%s: without a scheduler a retry must be rejected (\"retryScheduler\") before reaching the runtime: %d calls, err %v", f.actor, len(calls), f.err))
			}
			return nil
		}
		// The model rejects a retry only for an intent-store call that
		// failed, which the harness injected: the caller gets that failure
		// as it is (SPEC 4: the store's error is returned), not a transport
		// failure (error-class).
		return h.judgeErrClass(f, wantStore)
	}
	if !want.Pulled && len(calls) > 0 {
		return h.fail("model", fmt.Sprintf("%s: expected no runtime call (status %s, the model), got %d", f.actor, want.Status, len(calls)))
	}
	if v := h.judgePulled(f, calls, want); v != nil {
		return v
	}
	if reexec := countOp(calls, faults.OpExec); reexec > 0 {
		return h.fail("retry-never-reexecs", fmt.Sprintf("%s: a retry ran %d commands", f.actor, reexec))
	}
	if got.Status == workspace.RetryComplete && fence != nil && pull.Kind == model.PullComplete {
		if rt, ok := lastRuntime(calls); ok && rt != *fence {
			return h.fail("complete-on-own-runtime", fmt.Sprintf("%s: complete against %s, intent names %s", f.actor, rt, *fence))
		}
	}
	gotCmp := retryView{Status: string(got.Status), Attempt: got.Attempt, NotBefore: got.NotBefore.Sub(h.t0),
		RuntimeID: got.RuntimeID, TargetCursor: got.TargetCursor, Cursor: got.Cursor, HasError: got.Error != ""}
	wantCmp := retryView{Status: want.Status, Attempt: want.Attempt, NotBefore: want.NotBefore.Sub(h.t0),
		RuntimeID: want.RuntimeID, TargetCursor: want.TargetCursor, Cursor: want.Cursor,
		HasError: want.Status == "exhausted" || want.Status == "lost" || (want.Status == "pending" && !want.Progress)}
	if want.Status != "pending" {
		gotCmp.NotBefore, wantCmp.NotBefore = 0, 0
	}
	if want.Status != "pending" && want.Status != "exhausted" {
		gotCmp.Attempt, wantCmp.Attempt = 0, 0
	}
	if want.Status == "idle" || want.Status == "complete" || want.Status == "lost" && want.RuntimeID == nil {
		gotCmp.RuntimeID, wantCmp.RuntimeID = nil, nil
	}
	if d := diffUnlessEqual(wantCmp, gotCmp, retryView.equal); d != "" {
		return h.fail("model", fmt.Sprintf("%s: retry result (pull %s): expected the model's, got the SUT's (-expected +got):\n%s", f.actor, pull.Kind, d))
	}
	if want.ErrorContains != "" && !strings.Contains(got.Error, want.ErrorContains) {
		return h.fail("model", fmt.Sprintf("%s: expected a %s error containing %q, got %q", f.actor, want.Status, want.ErrorContains, got.Error))
	}
	if v := h.judgeRetryWrapper(f, calls, want, pull); v != nil {
		return v
	}
	return h.judgeLostForm(f, calls, want)
}

// retryView is the part of a retry result the model predicts exactly.
type retryView struct {
	Status       string
	Attempt      int
	NotBefore    time.Duration // since the clock's start, to the nanosecond
	RuntimeID    *string
	TargetCursor *scheduler.Cursor
	Cursor       *scheduler.Cursor
	HasError     bool
}

func (h *Host) judgeExec(f finished, calls []faults.Call, store []model.StoreCall) *Violation {
	b := h.names[f.backend]
	facts := readExec(calls)
	h.event(f.actor, "exec-result", describeExec(f.exec, f.err)...)
	if h.opts.NoScheduler && f.mode == workspace.SyncDefer {
		// SPEC 3.1, R13: assertDeferredReady runs first, so no push and no
		// spawn: not one runtime or store call.
		h.stats.ExecSync["error"]++
		if f.err == nil || !strings.Contains(f.err.Error(), "retryScheduler") || len(calls) > 0 || len(store) > 0 {
			return h.fail("model", fmt.Sprintf("%s: a deferred exec without a scheduler must be rejected (\"retryScheduler\") before any call: err %v, %d runtime calls, %d store calls", f.actor, f.err, len(calls), len(store)))
		}
		return nil
	}
	if !facts.spawned {
		// The command never reached a streamed end (push or spawn failed,
		// or deferred mode was refused): no post-command step at all.
		key := "error"
		if facts.ranAnyway {
			key = "error-after-dispatch"
		}
		h.stats.ExecSync[key]++
		if f.err == nil {
			return h.fail("model", fmt.Sprintf("%s: expected a command streamed by the runtime (the exec succeeded), got none", f.actor))
		}
		if len(store) > 0 {
			return h.fail("model", fmt.Sprintf("%s: exec failed before its command ran but touched the store: %v", f.actor, store))
		}
		want := h.execDispatchClass(f, calls)
		if v := h.judgeUnexplained(f, want, calls, "the exec failed before its command ran"); v != nil {
			return v
		}
		if v := h.judgeErrClass(f, want); v != nil {
			return v
		}
		return h.judgeExecWrapper(f, want, calls)
	}
	// Once the command streamed, Exec fails exactly when its event stream
	// did (SPEC 3.2: the stream errors to the consumer, sync is pending).
	if facts.cancelled {
		h.stats.ExecSync[syncName(f.mode)+"/cancelled"]++ // a cancel branch of runCommand
	}
	if (facts.eventsErr || facts.cancelled) != (f.err != nil) {
		return h.fail("model", fmt.Sprintf("%s: expected an exec error=%t (the event stream failed=%t), got %v", f.actor, facts.eventsErr, facts.eventsErr, f.err))
	}
	if v := h.judgeErrClass(f, streamClass(facts, calls)); v != nil {
		return v
	}
	e := model.Exec{Backend: b, Runtime: facts.runtime}
	var waitPull model.Pull // the post-command pull's outcome, in wait mode
	if f.mode == workspace.SyncDefer && !facts.eventsErr {
		e.Mode = model.Defer
		e.Captured = captureOutcome(facts.post, facts.runtime, h.syncNone(f.backend))
	} else {
		e.Mode = model.Wait
		p := pullOutcome(facts.post, facts.runtime, h.budget(), wallBudget{}) // pullOnce has no budget
		if p.Kind == model.PullComplete && pullOnceTripsCrossSide(facts.post, h.takePushRevReads(f.actor)) {
			p.Kind = model.PullFailed
			h.stats.ExecSync["wait/cross-side"]++
		}
		waitPull = p
		e.PullFailed = facts.eventsErr || facts.cancelled || p.Kind == model.PullFailed || p.Kind == model.PullLost
	}
	next, want, err := h.model.Exec(h.opts, e, h.clock.Now(), store)
	if err != nil {
		return h.fail("model", fmt.Sprintf("%s: %v", f.actor, err))
	}
	h.model = next
	got := f.exec.Sync
	key := string(got.Status)
	if got.Error != "" {
		key += "+error"
	}
	h.stats.ExecSync[syncName(f.mode)+"/"+key]++
	gotV := execView{Status: string(got.Status), HasError: got.Error != "", RuntimeID: got.RuntimeID, TargetCursor: got.TargetCursor}
	wantV := execView{Status: want.Status, HasError: want.HasError, RuntimeID: want.RuntimeID, TargetCursor: want.TargetCursor}
	if d := diffUnlessEqual(wantV, gotV, execView.equal); d != "" {
		return h.fail("model", fmt.Sprintf("%s: exec sync result: expected the model's, got the SUT's (-expected +got):\n%s", f.actor, d))
	}
	if e.Mode == model.Wait && !facts.eventsErr && !facts.cancelled {
		return h.judgeWaitSyncWrapper(f, facts.post, waitPull)
	}
	return nil
}

type execView struct {
	Status       string
	HasError     bool
	RuntimeID    *string
	TargetCursor *scheduler.Cursor
}

// diffUnlessEqual is cmp.Diff(want, got) with a fast path: judge compares
// after every operation and the two nearly always agree, so only a
// disagreement pays for cmp's reflection. equal must imply that cmp.Diff
// finds no difference (it compares what cmp compares: pointees, not
// pointers); when it says no, cmp.Diff has the last word.
func diffUnlessEqual[T any](want, got T, equal func(T, T) bool) string {
	if equal(want, got) {
		return ""
	}
	return cmp.Diff(want, got)
}

func (v retryView) equal(o retryView) bool {
	return v.Status == o.Status && v.Attempt == o.Attempt && v.NotBefore == o.NotBefore &&
		v.HasError == o.HasError && eqPtr(v.RuntimeID, o.RuntimeID) &&
		eqPtr(v.TargetCursor, o.TargetCursor) && eqPtr(v.Cursor, o.Cursor)
}

func (v execView) equal(o execView) bool {
	return v.Status == o.Status && v.HasError == o.HasError && eqPtr(v.RuntimeID, o.RuntimeID) &&
		eqPtr(v.TargetCursor, o.TargetCursor)
}

// eqPtr is cmp's pointer equality: both nil, or both set to equal values.
func eqPtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func countOp(calls []faults.Call, op faults.Op) int {
	n := 0
	for _, c := range calls {
		if c.Op == op {
			n++
		}
	}
	return n
}

// lastRuntime is the runtime id of the last connection the actor fetched on.
func lastRuntime(calls []faults.Call) (string, bool) {
	for i := len(calls) - 1; i >= 0; i-- {
		if calls[i].Op == faults.OpFetch && calls[i].Err == "" {
			return calls[i].RuntimeID, calls[i].HasRuntimeID
		}
	}
	return "", false
}

func describeRetry(r workspace.RetryResult, err error, start time.Time) []string {
	if err != nil {
		return []string{"rejected=" + oneWord(faults.PublicText(err))}
	}
	d := []string{"status=" + string(r.Status)}
	if r.Status == workspace.RetryPending || r.Status == workspace.RetryExhausted {
		d = append(d, "attempt="+strconv.Itoa(r.Attempt))
	}
	if r.Status == workspace.RetryPending {
		d = append(d, "notBefore="+event.Offset(r.NotBefore.Sub(start)))
	}
	if r.Status == workspace.RetryComplete {
		d = append(d, "applied="+strconv.Itoa(r.Applied))
	}
	if r.TargetCursor != nil {
		d = append(d, "target="+faults.CursorText(*r.TargetCursor))
	}
	if r.Cursor != nil {
		d = append(d, "cursor="+faults.CursorText(*r.Cursor))
	}
	if r.RuntimeID != nil {
		d = append(d, "runtime="+*r.RuntimeID)
	}
	if r.Error != "" {
		d = append(d, "error="+oneWord(faults.ScrubSecrets(r.Error)))
	}
	return d
}

func describeExec(r workspace.ExecResult, err error) []string {
	if err != nil {
		return []string{"error=" + oneWord(faults.PublicText(err))}
	}
	d := []string{"sync=" + string(r.Sync.Status), "exit=" + strconv.Itoa(r.ExitCode)}
	if r.Sync.Status == workspace.SyncComplete {
		d = append(d, "applied="+strconv.Itoa(r.Sync.Applied))
	}
	if r.Sync.TargetCursor != nil {
		d = append(d, "target="+faults.CursorText(*r.Sync.TargetCursor))
	}
	if r.Sync.RuntimeID != nil {
		d = append(d, "runtime="+*r.Sync.RuntimeID)
	}
	if r.Sync.Error != "" {
		d = append(d, "error="+oneWord(faults.ScrubSecrets(r.Sync.Error)))
	}
	return d
}

// oneWord quotes s so a trace detail stays one key=value field.
func oneWord(s string) string {
	s = strings.TrimSpace(s)
	if faults.QuotesAsIs(s) {
		return `"` + s + `"` // what strconv.Quote gives, without its walk over runes
	}
	return strconv.Quote(s)
}

func itoa(n int) string { return strconv.Itoa(n) }
