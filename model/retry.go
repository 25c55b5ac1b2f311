package model

import (
	"time"

	"github.com/syncsim/syncsim/scheduler"
)

// PullKind is how the retry's pull ended, as the runtime's record tells it.
type PullKind int

const (
	// PullComplete: the pull reached its target (or needed no remote call).
	PullComplete PullKind = iota
	// PullProgress: the batch budget stopped the pull before the target.
	PullProgress
	// PullFailed: the pull failed (transport, settle, divergence, ...).
	PullFailed
	// PullLost: the connection the pull reached reports another runtime
	// than the one the intent names (or none), or the pull failed with
	// code EEXEC_LOST the runtime raised itself. Lost only for an intent
	// with a runtime id; for one without it is an ordinary failure (SPEC 4).
	PullLost
)

var pullKindNames = [...]string{"complete", "progress", "failed", "lost"}

// String returns "complete", "progress", "failed" or "lost".
func (k PullKind) String() string { return pullKindNames[k] }

// Pull is the runtime's account of one retry's pull.
type Pull struct {
	Kind PullKind
	// Current is the snapshot bound the last fetch advertised; a progress
	// result's target is derived from it.
	Current scheduler.Cursor
	// Cursor is where a progress pull stopped.
	Cursor scheduler.Cursor
}

// RetryResult is what RetryPendingSync must return.
type RetryResult struct {
	// Rejected: the call itself returns an error (a store call failed
	// outside the pull's try, SPEC 4).
	Rejected bool
	Status   string // idle, complete, pending, exhausted, lost
	// Pulled: the call must have reached the runtime at all.
	Pulled bool
	// ErrorContains is text the result's error must contain, where the
	// SPEC fixes it: the pre-check's exhausted and a lost runtime.
	ErrorContains string
	// Progress: pending from the budget branch (Cursor set) rather than
	// from a failure (Error set).
	Progress     bool
	Attempt      int
	NotBefore    time.Time
	RuntimeID    *string
	TargetCursor *scheduler.Cursor
	Cursor       *scheduler.Cursor
}

// Retry is one RetryPendingSync call on backend at now (SPEC 4). pull is
// read from the runtime's record and ignored when the model expects no
// pull; store is the call's recorded scheduler calls.
func (s State) Retry(o Options, backend string, now time.Time, pull Pull, store []StoreCall) (State, RetryResult, error) {
	c := &calls{list: store}
	next, res, err := s.retry(o, backend, now, pull, c)
	if err == nil {
		err = c.done()
	}
	return next, res, err
}

func (s State) retry(o Options, backend string, now time.Time, pull Pull, c *calls) (State, RetryResult, error) {
	if o.NoScheduler {
		// "Workspace has no retryScheduler configured": before any store
		// call or pull.
		return s, RetryResult{Rejected: true}, nil
	}
	failed, err := c.take("get", backend)
	if err != nil || failed {
		return s, RetryResult{Rejected: true}, err
	}
	in, ok := s.lookup(backend)
	if !ok {
		return s, RetryResult{Status: "idle"}, nil
	}
	if in.Attempt > o.MaxAttempts {
		res := exhausted(in, false)
		res.ErrorContains = "pending sync retry attempts exhausted" // SPEC 4 pre-check
		return s, res, nil
	}
	pulled := true
	// The try block: success and progress write the store inside it, so a
	// refused write there is handled as a failed pull (SPEC 4 QUIRK).
	switch pull.Kind {
	case PullComplete:
		failed, err := c.take("clear", backend)
		if err != nil {
			return s, RetryResult{}, err
		}
		if !failed {
			return s.with(backend, nil), RetryResult{Status: "complete", Pulled: pulled}, nil
		}
	case PullProgress:
		target := pull.Current
		if in.TargetCursor != nil {
			target = scheduler.MinCursor(*in.TargetCursor, pull.Current)
		}
		next, failed, err := c.schedule(o, backend, 1, in.RuntimeID, &target, now)
		if err != nil {
			return s, RetryResult{}, err
		}
		if !failed {
			res := pendingResult(next)
			res.Progress, res.Cursor = true, scheduler.Ptr(pull.Cursor)
			return s.with(backend, &next), res, nil
		}
	case PullLost:
		if in.RuntimeID != nil {
			failed, err := c.take("clear", backend)
			if err != nil || failed {
				return s, RetryResult{Rejected: true}, err
			}
			return s.with(backend, nil), RetryResult{Status: "lost", Pulled: pulled, RuntimeID: in.RuntimeID,
				ErrorContains: "was lost when its container runtime was replaced"}, nil
		}
	}
	// The catch block: a failure. Exhaustion leaves the intent as it is.
	if in.Attempt >= o.MaxAttempts {
		res := exhausted(in, true)
		return s, res, nil
	}
	next, failed, err := c.schedule(o, backend, in.Attempt+1, in.RuntimeID, in.TargetCursor, now)
	if err != nil || failed {
		return s, RetryResult{Rejected: true, Pulled: pulled}, err
	}
	return s.with(backend, &next), pendingResult(next), nil
}

func exhausted(in scheduler.Intent, pulled bool) RetryResult {
	return RetryResult{Status: "exhausted", Pulled: pulled, Attempt: in.Attempt, RuntimeID: in.RuntimeID}
}

func pendingResult(in scheduler.Intent) RetryResult {
	return RetryResult{
		Status: "pending", Pulled: true, Attempt: in.Attempt, NotBefore: in.NotBefore,
		RuntimeID: in.RuntimeID, TargetCursor: in.TargetCursor,
	}
}
