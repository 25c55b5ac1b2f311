package model

import (
	"fmt"
	"sort"
	"time"

	"github.com/syncsim/syncsim/scheduler"
)

// Options are the retry settings the model reasons with (SPEC 2.1).
type Options struct {
	InitialDelay time.Duration
	MaxDelay     time.Duration
	MaxAttempts  int
	// NoScheduler: the workspace has no scheduler (SPEC 3.3 step 1). A
	// wait-mode failure stores nothing, RetryPendingSync is rejected, and
	// a deferred exec is rejected before it reaches the runtime.
	NoScheduler bool
	// ZeroBasedAttempts and the like are never here: the model is the
	// correct behaviour only.
}

// State is the intent table: at most one intent per backend.
type State struct {
	intents map[string]scheduler.Intent
}

// Empty is the table with no intents.
func Empty() State { return State{intents: map[string]scheduler.Intent{}} }

// FromIntents builds a table (e.g. what a host restart must preserve).
func FromIntents(in []scheduler.Intent) State {
	s := Empty()
	for _, i := range in {
		s.intents[i.Backend] = i.Clone()
	}
	return s
}

// Intent returns the intent the table holds for backend.
func (s State) Intent(backend string) (scheduler.Intent, bool) {
	i, ok := s.intents[backend]
	return i.Clone(), ok
}

// Intents returns every intent ordered by backend.
func (s State) Intents() []scheduler.Intent {
	out := make([]scheduler.Intent, 0, len(s.intents))
	for _, i := range s.intents {
		out = append(out, i.Clone())
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Backend < out[b].Backend })
	return out
}

func (s State) with(backend string, in *scheduler.Intent) State {
	next := State{intents: make(map[string]scheduler.Intent, len(s.intents)+1)}
	for k, v := range s.intents {
		next.intents[k] = v
	}
	if in == nil {
		delete(next.intents, backend)
	} else {
		next.intents[backend] = in.Clone()
	}
	return next
}

// Delay is the backoff of SPEC 2.3: initial·2^(attempt−1) capped at max,
// exponent never below 0. Written as a loop on purpose: it is obviously
// right and saturates without overflow.
func (o Options) Delay(attempt int) time.Duration {
	d := o.InitialDelay
	for i := 1; i < attempt && d < o.MaxDelay; i++ {
		d *= 2
	}
	if d > o.MaxDelay {
		d = o.MaxDelay
	}
	return d
}

func (o Options) intent(backend string, attempt int, runtime *string, target *scheduler.Cursor, now time.Time) scheduler.Intent {
	in := scheduler.Intent{Backend: backend, Attempt: attempt, NotBefore: now.Add(o.Delay(attempt))}
	if runtime != nil {
		in.RuntimeID = scheduler.Ptr(*runtime)
	}
	if target != nil {
		in.TargetCursor = scheduler.Ptr(*target)
	}
	return in
}

// Invariants checks what must hold of any table the library wrote: one
// intent per backend is structural here; attempts within 1..MaxAttempts.
// It returns one error per breach, ordered by backend.
func (s State) Invariants(o Options) []error {
	var errs []error
	for _, in := range s.Intents() {
		if in.Attempt < 1 || in.Attempt > o.MaxAttempts {
			errs = append(errs, fmt.Errorf("intent %s: attempt %d outside 1..%d", in, in.Attempt, o.MaxAttempts))
		}
	}
	return errs
}

// Plant is a host write: the host stores in itself (an intent the library
// did not build, possibly with attempt > MaxAttempts, which the pre-check
// then reports exhausted without pulling).
func (s State) Plant(in scheduler.Intent) State { return s.with(in.Backend, &in) }
