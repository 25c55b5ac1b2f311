package model

import (
	"errors"
	"time"

	"github.com/syncsim/syncsim/scheduler"
)

// Mode is an exec's sync mode.
type Mode int

const (
	// Wait: the exec pulls right after its command.
	Wait Mode = iota
	// Defer: the exec captures a target and stores an intent instead.
	Defer
)

// Exec is the runtime's account of one command whose event stream ended
// (cleanly or not): the runtime that ran it and what its post-command step
// did.
type Exec struct {
	Backend string
	Mode    Mode
	// Runtime is the id the spawning connection reported (nil: none).
	Runtime *string
	// PullFailed (wait mode): the post-command pull, or the event stream
	// itself, failed.
	PullFailed bool
	// Captured (defer mode): the target the settle watermarks returned;
	// nil when capture failed (settle, connect or runtime fence).
	Captured *scheduler.Cursor
}

// ExecResult is the sync outcome the exec must report.
type ExecResult struct {
	Status   string // complete or pending
	HasError bool
	// Metadata of a deferred exec's scheduling (absent when it failed).
	HasMetadata  bool
	RuntimeID    *string
	TargetCursor *scheduler.Cursor
}

var errScheduling = errors.New("scheduling failed")

// errDeferWithoutScheduler: a deferred exec on a workspace without a
// scheduler is rejected before push and spawn, so it has no post-command
// step to model; reaching Exec means the SUT ran it.
var errDeferWithoutScheduler = errors.New("a deferred exec without a scheduler must be rejected before it runs")

// Exec is the post-command step of SPEC 3 for one command, given what the
// runtime did. store is the step's recorded scheduler calls.
func (s State) Exec(o Options, e Exec, now time.Time, store []StoreCall) (State, ExecResult, error) {
	c := &calls{list: store}
	next, res, err := s.exec(o, e, now, c)
	if err == nil {
		err = c.done()
	}
	return next, res, err
}

func (s State) exec(o Options, e Exec, now time.Time, c *calls) (State, ExecResult, error) {
	if e.Mode == Defer && o.NoScheduler {
		return s, ExecResult{}, errDeferWithoutScheduler
	}
	if e.Mode == Wait {
		if !e.PullFailed {
			return s, ExecResult{Status: "complete"}, nil
		}
		if o.NoScheduler {
			// SPEC 3.3 step 1: nothing is stored, the result is still
			// pending with the pull's error.
			return s, ExecResult{Status: "pending", HasError: true}, nil
		}
		// Errors of the scheduling step are swallowed in wait mode: the
		// result carries the pull's error either way.
		next, _, err := s.schedulePending(o, e.Backend, e.Runtime, false, nil, now, c)
		if errors.Is(err, errScheduling) {
			err = nil
		}
		return next, ExecResult{Status: "pending", HasError: true}, err
	}
	next, meta, err := s.schedulePending(o, e.Backend, e.Runtime, true, e.Captured, now, c)
	if errors.Is(err, errScheduling) {
		return next, ExecResult{Status: "pending", HasError: true}, nil
	}
	if err != nil {
		return next, ExecResult{}, err
	}
	return next, ExecResult{Status: "pending", HasMetadata: true, RuntimeID: meta.RuntimeID, TargetCursor: meta.TargetCursor}, nil
}

// schedulePending is SPEC 3.3. errScheduling marks the failures the library
// surfaces (a refused store call, a failed capture); any other error is a
// disagreement between the SUT's store calls and the model.
func (s State) schedulePending(o Options, backend string, runtime *string, capture bool, captured *scheduler.Cursor, now time.Time, c *calls) (State, scheduler.Intent, error) {
	failed, err := c.take("get", backend)
	if err != nil {
		return s, scheduler.Intent{}, err
	}
	if failed {
		return s, scheduler.Intent{}, errScheduling
	}
	existing, ok := s.lookup(backend)
	same := ok && (runtime == nil || (existing.RuntimeID != nil && *existing.RuntimeID == *runtime))
	if !capture && same {
		return s, existing, nil // coalesced: attempt, notBefore and target kept
	}
	intentRuntime := runtime
	if intentRuntime == nil && same {
		intentRuntime = existing.RuntimeID
	}
	var target *scheduler.Cursor
	if capture && captured != nil {
		target = captured
		if same && existing.TargetCursor != nil && captured.Less(*existing.TargetCursor) {
			target = existing.TargetCursor // widen: never narrow a same-runtime fence
		}
	}
	in, failed, err := c.schedule(o, backend, 1, intentRuntime, target, now)
	if err != nil {
		return s, scheduler.Intent{}, err
	}
	if failed {
		return s, scheduler.Intent{}, errScheduling
	}
	next := s.with(backend, &in)
	if capture && captured == nil {
		return next, in, errScheduling // the unfenced intent is durable, then the capture error surfaces
	}
	return next, in, nil
}
