package workspace

import (
	"time"

	"github.com/benbjohnson/clock"
	"github.com/syncsim/syncsim/scheduler"
)

// Options configures a Workspace. Backends, Clock and Store are required.
type Options struct {
	// Backends in registration order; the first is the default backend.
	Backends []BackendConfig
	// Clock stamps intents; production passes clock.New().
	Clock clock.Clock
	// Scheduler stores retry intents; nil means no durable retries (SPEC 3.3
	// step 1: wait-mode failures store nothing, deferred exec is rejected).
	Scheduler scheduler.Scheduler
	// Retry configures backoff; zero fields take the SPEC 2.1 defaults.
	Retry RetryOptions
	// Store is the durable local store of files and cursors.
	Store Store
	// Parker supplies the FIFO's blocking primitive; nil uses channels.
	Parker Parker
	// PushBatch bounds every push batch (SPEC 6.5); a zero field takes the
	// SPEC's PUSH_BATCH value (DefaultPushBudget). Smaller batches split a
	// push into several remote calls, each acknowledged before the next.
	PushBatch PushBudget
	// Mutant plants deliberately wrong behaviour for harness self-tests (see
	// Mutant). The zero value is the correct code.
	Mutant Mutant
}

// BackendConfig registers a backend under an id.
type BackendConfig struct {
	ID      string
	Backend Backend
}

// RetryOptions are the backoff settings of SPEC 2.1. A zero field means
// "not supplied" and takes the default.
type RetryOptions struct {
	InitialDelay time.Duration // default 1s
	MaxDelay     time.Duration // default 60s
	MaxAttempts  int           // default 5
}

// Budget bounds one pullBatch (SPEC 6.4). Zero fields in the Budget passed
// to RetryPendingSync are invalid; pass nil for DefaultBudget.
type Budget struct {
	MaxEntries  int
	MaxBytes    int64
	MaxWallTime time.Duration // 0 = no wall-time limit
}

// DefaultBudget is used by RetryPendingSync when the caller passes nil.
var DefaultBudget = Budget{MaxEntries: 64, MaxBytes: 4 << 20}

// PushBudget bounds one push batch (SPEC 6.5): at most MaxEntries
// coalesced changes and, past the first, MaxBytes of content. The first
// change always goes, however large, so every batch progresses.
type PushBudget struct {
	MaxEntries int
	MaxBytes   int64
}

// DefaultPushBudget is SPEC 6.5's PUSH_BATCH: 256 entries, 4 MiB.
var DefaultPushBudget = PushBudget{MaxEntries: 256, MaxBytes: 4 << 20}

// ExecSync selects what happens after a command's event stream ends.
type ExecSync int

const (
	// SyncWait pulls immediately after the command (SPEC 3.1 wait).
	SyncWait ExecSync = iota
	// SyncDefer records a fenced intent instead of pulling (SPEC 3.1 defer).
	SyncDefer
)

// ExecOptions configures one Exec call.
type ExecOptions struct {
	// Backend id; "" means the default backend.
	Backend string
	Sync    ExecSync
	// OnEvent, when set, sees every event of the command's stream in order.
	OnEvent func(Event)
}

// ExecResult is what Exec returns once the command and its post-command
// step have finished.
type ExecResult struct {
	ExitCode int
	Sync     SyncResult
}

// SyncStatus is the post-command sync outcome of an exec.
type SyncStatus string

const (
	SyncComplete SyncStatus = "complete"
	SyncPending  SyncStatus = "pending"
)

// SyncResult is an exec's sync outcome (SPEC 3.1). Backend, RuntimeID and
// TargetCursor are the scheduling metadata of deferred mode.
type SyncResult struct {
	Status       SyncStatus
	Applied      int
	Skipped      []string
	Error        string
	Backend      string
	RuntimeID    *string
	TargetCursor *Cursor
}

// RetryStatus is the discriminant of a RetryPendingSync result (SPEC 1.4).
type RetryStatus string

const (
	RetryIdle      RetryStatus = "idle"
	RetryComplete  RetryStatus = "complete"
	RetryPending   RetryStatus = "pending"
	RetryExhausted RetryStatus = "exhausted"
	RetryLost      RetryStatus = "lost"
)

// RetryResult is the tagged union of SPEC 1.4; which fields are meaningful
// depends on Status. Cursor is set only on the pending progress branch.
type RetryResult struct {
	Status       RetryStatus
	Backend      string
	Applied      int
	Skipped      []string
	Attempt      int
	NotBefore    time.Time
	RuntimeID    *string
	TargetCursor *Cursor
	Cursor       *Cursor
	Error        string
}

// Mutant is a set of planted bugs. Each bit switches on one deliberately
// wrong variant of the retry logic so that a harness can prove it finds that
// class of bug. Production code leaves it zero; each check is one bit test.
type Mutant uint32

const (
	// MutantZeroBasedAttempts: new intents start at attempt 0 (article A).
	MutantZeroBasedAttempts Mutant = 1 << iota
	// MutantExhaustedClears: exhaustion clears the intent (article B).
	MutantExhaustedClears
	// MutantPrecheckGE: the pre-check uses >= and clears (article A).
	MutantPrecheckGE
	// MutantNoRuntimeFence: retries skip the runtime-identity assertion.
	MutantNoRuntimeFence
	// MutantNoReconcile: connect skips reconcileWatermarks.
	MutantNoReconcile
	// MutantCoalesceResetsAttempt: wait-mode coalescing reschedules attempt 1.
	MutantCoalesceResetsAttempt
	// MutantProgressAsFailure: a budget-bounded batch counts as a failure.
	MutantProgressAsFailure
	// MutantFIFOOverlap: the per-backend FIFO lets mutations overlap.
	MutantFIFOOverlap
	// MutantCursorBeforeApply: the fetch cursor is written before the
	// entries it covers are applied.
	MutantCursorBeforeApply
	// MutantNoWiden: a deferred capture replaces a wider same-runtime target.
	MutantNoWiden
	// MutantNoRedaction: result errors skip the credential redaction of
	// SPEC 1.4 (control characters and the cut still apply).
	MutantNoRedaction
	// MutantMutexAcrossCall: the workspace's mutex is held across the
	// backend's Connect, so a caller that needs it meanwhile blocks for real.
	MutantMutexAcrossCall
)

// Has reports whether bug b is planted.
func (m Mutant) Has(b Mutant) bool { return m&b != 0 }
