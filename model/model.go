package model

import (
	"fmt"
	"slices"
	"strings"
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
	// intents are private copies ordered by backend, never changed in
	// place: with builds a new slice. A table holds a handful of
	// backends, so copying a sorted slice costs an update less than
	// copying a map did, and Intents needs no sort.
	intents []scheduler.Intent
}

// Empty is the table with no intents.
func Empty() State { return State{} }

// FromIntents builds a table (e.g. what a host restart must preserve).
// Of two intents for one backend, the later one counts.
func FromIntents(in []scheduler.Intent) State {
	s := Empty()
	for i := range in {
		s = s.with(in[i].Backend, &in[i])
	}
	return s
}

// Intent returns the intent the table holds for backend.
func (s State) Intent(backend string) (scheduler.Intent, bool) {
	i, ok := s.lookup(backend)
	return i.Clone(), ok
}

// Intents returns every intent ordered by backend.
func (s State) Intents() []scheduler.Intent {
	out := make([]scheduler.Intent, len(s.intents))
	for i, in := range s.intents {
		out[i] = in.Clone()
	}
	return out
}

// lookup returns the table's own intent for backend (not a copy: callers
// must not change it).
func (s State) lookup(backend string) (scheduler.Intent, bool) {
	if i, ok := s.find(backend); ok {
		return s.intents[i], true
	}
	return scheduler.Intent{}, false
}

// find returns where backend's intent is, or would be inserted.
func (s State) find(backend string) (int, bool) {
	return slices.BinarySearchFunc(s.intents, backend, func(in scheduler.Intent, b string) int {
		return strings.Compare(in.Backend, b)
	})
}

// with returns the table with backend's intent set to a copy of in, or
// removed when in is nil.
func (s State) with(backend string, in *scheduler.Intent) State {
	i, found := s.find(backend)
	n := len(s.intents)
	switch {
	case in == nil && !found:
		return s
	case in == nil:
		next := make([]scheduler.Intent, 0, n-1)
		next = append(next, s.intents[:i]...)
		return State{intents: append(next, s.intents[i+1:]...)}
	case found:
		next := slices.Clone(s.intents)
		next[i] = in.Clone()
		return State{intents: next}
	default:
		next := make([]scheduler.Intent, 0, n+1)
		next = append(next, s.intents[:i]...)
		next = append(next, in.Clone())
		return State{intents: append(next, s.intents[i:]...)}
	}
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
