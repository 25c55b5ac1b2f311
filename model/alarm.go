package model

import "github.com/syncsim/syncsim/scheduler"

// Settled is the judge's own account of the alarm's settled set (SPEC's
// one-alarm rule as DESIGN restates it): an intent the host handed to a
// firing and found stored exactly as it was handed over once the retries
// returned needs no alarm until it changes; one settled earlier stays
// settled while it is stored unchanged; a fresh hand-over supersedes an
// older settlement. It restates scheduler.AlarmRule's settling without
// calling it, and compares intents with SameIntent, never Intent.Equal,
// so a wrong settle or a wrong equality in the production rule makes the
// alarm differ from this account instead of from nothing.
type Settled struct {
	// intents holds the settled intents, one per backend, as private
	// copies. A handful of backends at most, so a slice scanned in full
	// costs a firing less than maps built anew at each one.
	intents []scheduler.Intent
}

// Settle returns the account after a firing: handed are the intents the
// host handed over (listed before the firing), after the store listed
// once the retries returned.
func (s Settled) Settle(handed, after []scheduler.Intent) Settled {
	var next Settled
	keep := func(in scheduler.Intent) {
		st, ok := findIntent(after, in.Backend)
		if !ok || !SameIntent(st, in) {
			return
		}
		if prev, ok := findIntent(s.intents, in.Backend); ok && SameIntent(prev, st) {
			next.intents = append(next.intents, prev) // already a private copy
			return
		}
		next.intents = append(next.intents, cloneIntent(st))
	}
	for _, in := range handed {
		keep(in)
	}
	for _, in := range s.intents {
		if _, handedOver := findIntent(handed, in.Backend); !handedOver {
			keep(in)
		}
	}
	return next
}

// findIntent returns backend's intent in ins, if any.
func findIntent(ins []scheduler.Intent, backend string) (scheduler.Intent, bool) {
	for _, in := range ins {
		if in.Backend == backend {
			return in, true
		}
	}
	return scheduler.Intent{}, false
}

// Has reports whether in is settled: handed over and stored unchanged
// since.
func (s Settled) Has(in scheduler.Intent) bool {
	st, ok := findIntent(s.intents, in.Backend)
	return ok && SameIntent(st, in)
}

// SameIntent reports whether two intents hold the same fields: absent and
// present optional fields told apart, NotBefore as an instant, a target
// cursor as a position (a path-less cursor's stray path string is no part
// of it).
func SameIntent(a, b scheduler.Intent) bool {
	return a.Backend == b.Backend && a.Attempt == b.Attempt && a.NotBefore.Equal(b.NotBefore) &&
		sameCursorPtr(a.TargetCursor, b.TargetCursor) && sameStringPtr(a.RuntimeID, b.RuntimeID)
}

func sameCursorPtr(a, b *scheduler.Cursor) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Rev == b.Rev && a.HasPath == b.HasPath && (!a.HasPath || a.Path == b.Path)
}

func sameStringPtr(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// cloneIntent copies in with its own optional fields, so a store that
// reuses what it returned cannot change the account.
func cloneIntent(in scheduler.Intent) scheduler.Intent {
	if in.TargetCursor != nil {
		c := *in.TargetCursor
		in.TargetCursor = &c
	}
	if in.RuntimeID != nil {
		r := *in.RuntimeID
		in.RuntimeID = &r
	}
	return in
}
