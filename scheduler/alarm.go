package scheduler

import (
	"slices"
	"time"
)

// The host alarm rule (DESIGN "The host"): the host has one alarm, and it
// must never be later than the earliest NotBefore among stored intents that
// can still make progress. This file is that rule as pure functions of the
// stored intents, so the production Waker and the simulator's host share
// the rule; the reference model re-derives it on its own.
//
// Which intents can make progress (SPEC §4):
//
//   - attempt < maxAttempts: a retry pulls, and on failure the library
//     reschedules attempt+1 with a later NotBefore. Live.
//   - attempt == maxAttempts: the pre-check uses ">", so every call still
//     performs one real pull; success completes and clears, a budget stop
//     resets attempt to 1. Live: with maxAttempts = N a failing backend must
//     see N pulls, and the Nth is made at attempt N. Excluding it would
//     strand the last retry of every backend.
//   - attempt > maxAttempts: the pre-check returns exhausted without
//     pulling, storing nothing. Retrying it can never change anything (only
//     the host rewriting the intent, or a larger maxAttempts, can), so it
//     is excluded.
//
// The catch with attempt == maxAttempts: when its pull fails the library
// reports exhausted and leaves the intent exactly as it was, NotBefore in
// the past. A rule that only looks at intents would arm the alarm at that
// past instant again and again: a tight loop (a livelock in virtual time).
// So the host remembers what it handed over and found unchanged afterwards:
// Settled. An intent equal to a settled one needs no alarm; any rewrite
// (a new failure, a deferred capture, a replacement) makes it live again.
//
// NB: an earlier version remembered a time instead ("everything due up to
// Handled was handed over") and syncsim found it wrong: an intent built
// before the alarm fired (NotBefore = its build time + delay) can land in the
// store after the alarm handed over everything due, with a NotBefore at or
// before Handled. It was then excluded forever: stranded. Comparing whole
// intents has no such window: the late intent equals nothing settled.
//
// Settled is in-memory host state and starts empty, so after a host restart
// every due intent (exhausted ones included) gets one more pull — harmless:
// a pull at attempt == maxAttempts that succeeds completes, and one that
// fails leaves the intent unchanged and it is settled again.
//
// A host that could not hand a due backend over (its store failed, the call
// was rejected) finds the intent unchanged too; it must not loop on it at
// once either, and must not give up on it: it hands it over again after a
// delay of its own (Waker.RetryDelay).

// AlarmRule is the host alarm rule as a value. Its methods never mutate
// their arguments or the rule.
type AlarmRule struct {
	// MaxAttempts is the workspace's retry.maxAttempts (SPEC 2.1).
	MaxAttempts int
	// Settled are intents the host handed to RetryPendingSync and found
	// stored unchanged afterwards, at most one per backend, sorted by
	// backend. Build it with Settle.
	Settled []Intent
}

// Live reports whether retrying in can still make progress:
// attempt <= MaxAttempts. It ignores Settled.
func (r AlarmRule) Live(in Intent) bool { return in.Attempt <= r.MaxAttempts }

// IsSettled reports whether in equals the intent settled for its backend.
func (r AlarmRule) IsSettled(in Intent) bool {
	i, ok := slices.BinarySearchFunc(r.Settled, in.Backend, func(s Intent, b string) int {
		switch {
		case s.Backend < b:
			return -1
		case s.Backend > b:
			return 1
		}
		return 0
	})
	return ok && r.Settled[i].Equal(in)
}

// pending reports whether in needs the alarm: live and not settled.
func (r AlarmRule) pending(in Intent) bool { return r.Live(in) && !r.IsSettled(in) }

// Next returns the time the alarm must be set to: the earliest NotBefore
// among live, unsettled intents (possibly in the past: then the alarm is due
// at once). ok is false when no intent needs the alarm, and the host should
// cancel it.
func (r AlarmRule) Next(intents []Intent) (at time.Time, ok bool) {
	for _, in := range intents {
		if r.pending(in) && (!ok || in.NotBefore.Before(at)) {
			at, ok = in.NotBefore, true
		}
	}
	return at, ok
}

// Due returns the backends, sorted and without duplicates, whose live,
// unsettled intent has NotBefore at or before now: the ones to hand to
// RetryPendingSync when the alarm fires at now.
func (r AlarmRule) Due(intents []Intent, now time.Time) []string {
	var due []string
	for _, in := range intents {
		if r.pending(in) && !in.NotBefore.After(now) {
			due = append(due, in.Backend)
		}
	}
	slices.Sort(due)
	return slices.Compact(due)
}

// Settle returns the rule after a firing: handed are the intents the host
// handed over (as listed before the firing), after is the store listed once
// the retries returned. An intent handed over and stored unchanged is
// settled; a settled intent that was not handed over this time stays
// settled while it is stored unchanged; everything else is dropped.
func (r AlarmRule) Settle(handed, after []Intent) AlarmRule {
	stored := make(map[string]Intent, len(after))
	for _, in := range after {
		stored[in.Backend] = in
	}
	next := AlarmRule{MaxAttempts: r.MaxAttempts}
	seen := make(map[string]bool, len(handed))
	for _, in := range append(slices.Clone(handed), r.Settled...) {
		if seen[in.Backend] {
			continue // a fresh hand-over supersedes an older settlement
		}
		seen[in.Backend] = true
		if s, ok := stored[in.Backend]; ok && s.Equal(in) {
			next.Settled = append(next.Settled, s.Clone())
		}
	}
	slices.SortFunc(next.Settled, func(a, b Intent) int {
		switch {
		case a.Backend < b.Backend:
			return -1
		case a.Backend > b.Backend:
			return 1
		}
		return 0
	})
	return next
}

// AlarmTime is AlarmRule{MaxAttempts: maxAttempts}.Next(intents): the
// earliest NotBefore among intents with attempt <= maxAttempts, nothing
// settled yet. It is the bound the alarm must never be later than right
// after a host start; a running host uses AlarmRule with Settled.
func AlarmTime(intents []Intent, maxAttempts int) (time.Time, bool) {
	return AlarmRule{MaxAttempts: maxAttempts}.Next(intents)
}

// Due is AlarmRule{MaxAttempts: maxAttempts}.Due(intents, now): the sorted
// backends whose live intent has NotBefore <= now.
func Due(intents []Intent, maxAttempts int, now time.Time) []string {
	return AlarmRule{MaxAttempts: maxAttempts}.Due(intents, now)
}
