// Package plant holds the planted bugs of package workspace: deliberately
// wrong variants of the retry logic, each one bit of a Set, that syncsim's
// harness switches on to prove it finds that class of bug. It is internal
// so that workspace's API carries none of it; the harness reaches it
// through workspace/planttest.
package plant

// Set is a set of planted bugs. Each bit switches on one deliberately
// wrong variant of the retry logic so that a harness can prove it finds that
// class of bug. Production code leaves it zero; each check is one bit test.
type Set uint32

const (
	// ZeroBasedAttempts: new intents start at attempt 0 (article A).
	ZeroBasedAttempts Set = 1 << iota
	// ExhaustedClears: exhaustion clears the intent (article B).
	ExhaustedClears
	// PrecheckGE: the pre-check uses >= and clears (article A).
	PrecheckGE
	// NoRuntimeFence: retries skip the runtime-identity assertion.
	NoRuntimeFence
	// NoReconcile: connect skips reconcileWatermarks.
	NoReconcile
	// CoalesceResetsAttempt: wait-mode coalescing reschedules attempt 1.
	CoalesceResetsAttempt
	// ProgressAsFailure: a budget-bounded batch counts as a failure.
	ProgressAsFailure
	// FIFOOverlap: the per-backend FIFO lets mutations overlap.
	FIFOOverlap
	// CursorBeforeApply: the fetch cursor is written before the
	// entries it covers are applied.
	CursorBeforeApply
	// NoWiden: a deferred capture replaces a wider same-runtime target.
	NoWiden
	// NoRedaction: result errors skip the credential redaction of
	// SPEC 1.4 (control characters and the cut still apply).
	NoRedaction
	// MutexAcrossCall: the workspace's mutex is held across the
	// backend's Connect, so a caller that needs it meanwhile blocks for real.
	MutexAcrossCall
)

// Has reports whether bug b is planted.
func (m Set) Has(b Set) bool { return m&b != 0 }

// New is set by package workspace when it is initialised: it builds a
// workspace (its arguments are a workspace.Options and the bugs to plant;
// its result a *workspace.Workspace). It is typed with any because this
// package cannot import workspace, which imports it; planttest.New gives
// it its real types.
var New func(opts any, bugs Set) (any, error)
