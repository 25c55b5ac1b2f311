package oracle

import (
	"strconv"
	"strings"
	"time"

	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// APIChecker judges property api (SPEC 2.2, 6.4): the workspace's option
// validation refuses exactly what the SPEC refuses, with its message for
// the first failing option, and accepts the run's own options; a batch
// budget is validated the same way; the sync modes have the SPEC's names.
// A run builds its workspace with valid options only and never reads the
// names, so the driver probes them at the first start (history.APIProbed)
// and records what it tried; the rules are restated here, never taken
// from the workspace.
type APIChecker struct{}

// Reads: the probes, and a build of the run's own workspace refused.
func (APIChecker) Reads() history.Kinds { return history.Of(history.APIProbed, history.DriverFailed) }

// Begin starts a run.
func (APIChecker) Begin(history.Setup, history.Records) {}

// Observe judges one probe.
func (APIChecker) Observe(e *history.Event, rep history.Reporter) {
	d := ""
	switch {
	case e.Kind == history.DriverFailed:
		if e.Driver.Property == "api" {
			d = e.Driver.Detail
		}
	case e.Probe.What == "retry-options":
		d = RetryOptionsVerdict(e.Probe.Retry, e.Probe.Err)
	case e.Probe.What == "budget":
		d = BudgetVerdict(e.Probe.Budget, e.Probe.Result, e.Probe.Err)
	case e.Probe.What == "sync-mode-names":
		d = SyncModeNamesVerdict(e.Probe.Names)
	}
	if d != "" {
		rep.Violate("api", d)
	}
}

// specMaxSafe is Number.MAX_SAFE_INTEGER, SPEC 2.2's bound.
const specMaxSafe = 1<<53 - 1

// SpecRetryError is the error SPEC 2.2 says construction fails with for o
// ("" when it must succeed): each resolved value must be a positive safe
// integer of milliseconds (attempts), checked initialDelayMs, maxDelayMs,
// maxAttempts in that order, first failure wins. Go's RetryOptions take a
// zero field as "not supplied" (the TypeScript's nullish): zero is the
// default, not an error.
func SpecRetryError(o workspace.RetryOptions) string {
	wholeMs := func(d time.Duration) bool {
		return d == 0 || d > 0 && d%time.Millisecond == 0 && int64(d/time.Millisecond) <= specMaxSafe
	}
	switch {
	case !wholeMs(o.InitialDelay):
		return "Workspace retry.initialDelayMs must be a positive integer"
	case !wholeMs(o.MaxDelay):
		return "Workspace retry.maxDelayMs must be a positive integer"
	case o.MaxAttempts < 0 || int64(o.MaxAttempts) > specMaxSafe:
		return "Workspace retry.maxAttempts must be a positive integer"
	}
	return ""
}

// RetryOptionsVerdict holds err, what building a workspace with o
// returned, to SPEC 2.2 ("" when it agrees).
func RetryOptionsVerdict(o workspace.RetryOptions, err error) string {
	want := SpecRetryError(o)
	switch {
	case err == nil && want == "":
	case err == nil:
		return "retry options " + describeRetryOptions(o) + ": expected the workspace to be refused with \"" + want + "\" (SPEC 2.2), got one built"
	case want == "":
		return "retry options " + describeRetryOptions(o) + ": expected a workspace (SPEC 2.2 accepts them), got " + strconv.Quote(err.Error())
	case err.Error() != want:
		return "retry options " + describeRetryOptions(o) + ": expected the error \"" + want + "\" (SPEC 2.2, first failing option), got " + strconv.Quote(err.Error())
	}
	return ""
}

func describeRetryOptions(o workspace.RetryOptions) string {
	return "initial=" + o.InitialDelay.String() + " max=" + o.MaxDelay.String() + " attempts=" + strconv.Itoa(o.MaxAttempts)
}

// SyncModeNamesVerdict holds the sync modes' names (SyncNone's, then
// SyncRemote's) to the SPEC's: a sync-less handle is "none" and a syncing
// one is anything else.
func SyncModeNamesVerdict(names [2]string) string {
	if names[0] != "none" {
		return "SyncNone.String(): expected \"none\" (SPEC 4: handle.sync == \"none\"), got " + strconv.Quote(names[0])
	}
	if names[1] == "none" {
		return "SyncRemote.String(): expected a name other than \"none\" (a syncing handle), got \"none\""
	}
	return ""
}

// SpecBudgetError is the message SPEC 6.4 says pullBatch throws for b (""
// when b is valid).
func SpecBudgetError(b workspace.Budget) string {
	switch {
	case b.MaxEntries <= 0 || int64(b.MaxEntries) > specMaxSafe:
		return "Sync batch maxEntries must be a positive safe integer"
	case b.MaxBytes <= 0 || b.MaxBytes > specMaxSafe:
		return "Sync batch maxBytes must be a positive safe integer"
	case b.MaxWallTime < 0:
		return "Sync batch maxWallTimeMs must be a positive finite number"
	}
	return ""
}

// BudgetVerdict holds a probe retry's outcome (on an empty log, one
// planted intent of attempt 1) with budget b to SPEC 6.4: a valid budget
// completes (nothing to fetch), an invalid one is a counted failure
// (pending, attempt 2) carrying the SPEC's message for the first failing
// field ("" when it agrees).
func BudgetVerdict(b workspace.Budget, res workspace.RetryResult, err error) string {
	want := SpecBudgetError(b)
	switch {
	case err != nil:
		return "budget " + describeBudget(b) + ": expected a retry result (SPEC 6.4: a pull failure is a result), got the error " + strconv.Quote(err.Error())
	case want == "" && res.Status != workspace.RetryComplete:
		return "budget " + describeBudget(b) + ": a valid budget on an empty log: expected complete, got " + string(res.Status) + " " + strconv.Quote(res.Error)
	case want != "" && (res.Status != workspace.RetryPending || res.Attempt != 2 || !strings.Contains(res.Error, want)):
		return "budget " + describeBudget(b) + ": expected a counted failure (pending, attempt 2) with \"" + want + "\" (SPEC 6.4, first failing field), got " +
			string(res.Status) + " attempt " + strconv.Itoa(res.Attempt) + " " + strconv.Quote(res.Error)
	}
	return ""
}

func describeBudget(b workspace.Budget) string {
	return "entries=" + strconv.Itoa(b.MaxEntries) + " bytes=" + strconv.FormatInt(b.MaxBytes, 10) + " wall=" + b.MaxWallTime.String()
}
