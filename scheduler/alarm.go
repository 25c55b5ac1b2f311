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
//     strand the last retry of every backend whose runtime survived.
//   - attempt > maxAttempts: the pre-check returns exhausted without
//     pulling, storing nothing. Retrying it can never change anything (only
//     the host rewriting the intent, or a larger maxAttempts, can), so it
//     is excluded.
//
// The catch with attempt == maxAttempts: when its pull fails the library
// reports exhausted and leaves the intent exactly as it was, NotBefore in
// the past. A rule that only looks at intents would arm the alarm at that
// past instant again and again: a tight loop (a livelock in virtual time).
// The library moves NotBefore strictly forward (now + a positive delay)
// whenever it wants another try, and deletes the intent when it is done, so
// an intent whose NotBefore is at or before an instant the host has already
// handled is one the library chose to leave alone. AlarmRule therefore
// carries Handled, the instant through which the host has handed every due
// intent to RetryPendingSync, and only intents due after it arm the alarm.
// Handled is in-memory host state: it starts at the zero time, so after a
// host restart every due intent (exhausted ones included) gets one more
// pull — harmless, since a pull at attempt == maxAttempts that succeeds
// completes, and one that fails leaves the intent unchanged.
//
// A host that could not hand a due backend over (its store failed, the
// call was rejected) must not advance Handled past that intent, or the
// intent is stranded until the next restart; Waker re-arms after a delay
// instead.

// AlarmRule is the host alarm rule as a value. It is comparable and its
// methods never mutate their arguments.
type AlarmRule struct {
	// MaxAttempts is the workspace's retry.maxAttempts (SPEC 2.1).
	MaxAttempts int
	// Handled is the instant through which due intents have already been
	// handed to RetryPendingSync; the zero time when the host starts.
	Handled time.Time
}

// Live reports whether retrying in can still make progress:
// attempt <= MaxAttempts. It ignores Handled.
func (r AlarmRule) Live(in Intent) bool { return in.Attempt <= r.MaxAttempts }

// pending reports whether in is live and not yet handled.
func (r AlarmRule) pending(in Intent) bool {
	return r.Live(in) && in.NotBefore.After(r.Handled)
}

// Next returns the time the alarm must be set to: the earliest NotBefore
// among live intents due after Handled. ok is false when no intent needs
// the alarm, and the host should cancel it.
func (r AlarmRule) Next(intents []Intent) (at time.Time, ok bool) {
	for _, in := range intents {
		if r.pending(in) && (!ok || in.NotBefore.Before(at)) {
			at, ok = in.NotBefore, true
		}
	}
	return at, ok
}

// Due returns the backends, sorted and without duplicates, whose live intent
// is due after Handled and at or before now: the ones to hand to
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

// AlarmTime is AlarmRule{MaxAttempts: maxAttempts}.Next(intents): the
// earliest NotBefore among intents with attempt <= maxAttempts, nothing
// handled yet. It is the bound the alarm must never be later than right
// after a host start; a running host uses AlarmRule with Handled set.
func AlarmTime(intents []Intent, maxAttempts int) (time.Time, bool) {
	return AlarmRule{MaxAttempts: maxAttempts}.Next(intents)
}

// Due is AlarmRule{MaxAttempts: maxAttempts}.Due(intents, now): the sorted
// backends whose live intent has NotBefore <= now.
func Due(intents []Intent, maxAttempts int, now time.Time) []string {
	return AlarmRule{MaxAttempts: maxAttempts}.Due(intents, now)
}
