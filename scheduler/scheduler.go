package scheduler

import "context"

// Scheduler stores retry intents, one per backend (SPEC 1.3). It is owned by
// the host: the workspace only calls these three methods and never touches an
// alarm. Implementations must be safe for concurrent use.
type Scheduler interface {
	// Get returns the stored intent for backend. No intent is not an error:
	// ok is false, err is nil and intent is the zero Intent (as a map's
	// comma-ok read; schedulertest holds a store to it).
	Get(ctx context.Context, backend string) (intent Intent, ok bool, err error)
	// Schedule upserts intent under intent.Backend, replacing any stored one.
	Schedule(ctx context.Context, intent Intent) error
	// Clear deletes the intent stored for backend. Clearing a backend with no
	// intent succeeds.
	Clear(ctx context.Context, backend string) error
}

// Lister is implemented by schedulers that can enumerate their intents. The
// host needs it to compute its alarm (see AlarmTime) and to find due backends.
type Lister interface {
	// List returns every stored intent ordered by backend id.
	List(ctx context.Context) ([]Intent, error)
}
