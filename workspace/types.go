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
	// SyncComplete: the post-command pull finished; nothing is pending.
	SyncComplete SyncStatus = "complete"
	// SyncPending: changes are still to pull (always so for a deferred
	// exec); Error says why when a pull failed.
	SyncPending SyncStatus = "pending"
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
	// RetryIdle: the backend had no intent; nothing was done.
	RetryIdle RetryStatus = "idle"
	// RetryComplete: the pull reached the intent's target and the intent
	// was cleared.
	RetryComplete RetryStatus = "complete"
	// RetryPending: the intent was rescheduled, after progress (attempt 1,
	// Cursor set) or after a failure (attempt+1, Error set).
	RetryPending RetryStatus = "pending"
	// RetryExhausted: no attempts are left; the intent is left unchanged
	// so the failure stays visible.
	RetryExhausted RetryStatus = "exhausted"
	// RetryLost: the runtime the intent names was replaced (EEXEC_LOST);
	// the intent was cleared.
	RetryLost RetryStatus = "lost"
)

// RetryResult is the tagged union of SPEC 1.4; which fields are meaningful
// depends on Status. Cursor is set only on the pending progress branch.
type RetryResult struct {
	Status       RetryStatus
	Backend      string
	Applied      int
	Skipped      []string // nil when none, as in PullResult
	Attempt      int
	NotBefore    time.Time
	RuntimeID    *string
	TargetCursor *Cursor
	Cursor       *Cursor
	Error        string
}
