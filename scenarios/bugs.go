package scenarios

import (
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/workspace/planttest"
)

// Bug is one planted, deliberately wrong variant of the system, selectable
// by name. It exists to prove that the harness finds the bug class it
// stands for, and how fast. Off by default; when off it costs nothing but a
// bit test in the workspace.
type Bug struct {
	Name string
	// Class is the real bug class the variant stands for.
	Class  string
	mutant planttest.Set
	alarm  sim.AlarmPolicy
	// forgetful makes the intent store lose everything at host restart.
	forgetful bool
	// blocking makes the intent store's third Schedule never return.
	blocking bool
}

// Bugs is the planted-bug catalogue, in a stable order.
var Bugs = []Bug{
	{Name: "zero-based-attempts", mutant: planttest.ZeroBasedAttempts,
		Class: "article A: attempts counted from 0, so the first retry waits 2x and one extra attempt is made"},
	{Name: "exhausted-clears", mutant: planttest.ExhaustedClears,
		Class: "article B: exhaustion deletes the intent, so the failure is no longer visible"},
	{Name: "precheck-ge", mutant: planttest.PrecheckGE,
		Class: "article A: the pre-check uses >= and clears, skipping the last real attempt"},
	{Name: "single-alarm", alarm: sim.AlarmSingleOverwrite,
		Class: "seed articles: schedule overwrites the one alarm and clear cancels it, stranding other backends"},
	{Name: "no-runtime-fence", mutant: planttest.NoRuntimeFence,
		Class: "missing runtime-identity fence: complete reported against a replacement container"},
	{Name: "no-reconcile", mutant: planttest.NoReconcile,
		Class: "missing reconcile on connect: cursors past a truncated remote log"},
	{Name: "coalesce-resets-attempt", mutant: planttest.CoalesceResetsAttempt,
		Class: "coalescing a repeated failure resets the attempt count, so backoff never grows"},
	{Name: "progress-as-failure", mutant: planttest.ProgressAsFailure,
		Class: "a budget-bounded batch counted as a failure, so large pulls exhaust while progressing"},
	{Name: "fifo-overlap", mutant: planttest.FIFOOverlap,
		Class: "the per-backend FIFO lets two mutations of one backend overlap (lost update)"},
	{Name: "cursor-before-apply", mutant: planttest.CursorBeforeApply,
		Class: "the fetch cursor is written before the entries it covers are applied"},
	{Name: "no-widen", mutant: planttest.NoWiden,
		Class: "a later deferred capture narrows a wider fence of the same runtime"},
	{Name: "alarm-handled-time", alarm: sim.AlarmHandledTime,
		Class: "a time-based alarm rule: an intent built before the alarm fired but stored after it is stranded (found by syncsim in this project's own first rule)"},
	{Name: "alarm-no-settle", alarm: sim.AlarmNoSettle,
		Class: "an alarm that never settles what it handed over: an exhausted intent keeps it firing, retrying what the host gave up on"},
	{Name: "alarm-stale-rearm", alarm: sim.AlarmStaleRearm,
		Class: "read-then-act: after a firing the Waker arms from the listing it took right after the hand-over, not a fresh one, so an intent a request stored meanwhile (its re-arm a no-op while the firing was in flight) is stranded"},
	{Name: "no-redaction", mutant: planttest.NoRedaction,
		Class: "result errors keep the credentials of the failure they report (SPEC 1.4 redaction skipped)"},
	{Name: "forgetful-scheduler", forgetful: true,
		Class: "the intent store is not durable across a host restart"},
	{Name: "mutex-across-call", mutant: planttest.MutexAcrossCall,
		Class: "a lock held across a backend call: whoever needs it meanwhile blocks (reported as hang by the watchdog)"},
	{Name: "blocking-scheduler", blocking: true,
		Class: "an intent store whose Schedule never returns from its third call on (reported as hang by the watchdog)"},
}

// Hangs reports whether the bug shows as property hang: found only by the
// wall-clock watchdog, so every run that meets it costs the watchdog's
// timeout, and its scenarios are not shrunk.
func (b Bug) Hangs() bool { return b.blocking || b.mutant.Has(planttest.MutexAcrossCall) }

// BugByName finds a planted bug.
func BugByName(name string) (Bug, bool) {
	for _, b := range Bugs {
		if b.Name == name {
			return b, true
		}
	}
	return Bug{}, false
}

// schedulerFactory wraps base so that it forgets at every host start.
func forgetfulFactory() sim.SchedulerFactory {
	return func(string) (scheduler.Scheduler, error) { return scheduler.NewMemory(), nil }
}
