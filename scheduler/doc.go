// Package scheduler holds the durable retry intents of SPEC §1 and the
// host's alarm over them. An intent says that a backend still has changes
// to pull: from which runtime, up to which target, at which attempt, and
// not before when; there is at most one per backend. The workspace only
// ever calls Get, Schedule and Clear; everything about waking up at
// NotBefore belongs to the host (AlarmRule, NewWaker).
//
// # Types
//
// Cursor is a position in a change stream; its null path (HasPath false)
// sorts after every string path of the same rev and is distinct from "".
// Intent is one pending sync per backend; nil pointers mean absent, which is
// not the same as "" or {0,null}. Scheduler is the store the workspace
// uses; Lister is the extra the host needs to compute its alarm.
//
// # Choosing a store
//
//  1. Tests and the simulator: NewMemory. Keep the same *Memory across a
//     simulated host restart and it behaves as the durable store; its
//     Scheduled and Cleared logs are the reference test scheduler's (SPEC
//     1.3).
//  2. A real host: OpenSQLite(path). WAL, synchronous=FULL, one statement
//     per write, versioned schema (PRAGMA user_version; a newer or foreign
//     file is refused with ErrSchemaVersion). A row that does not decode
//     fails Get and List with ErrCorrupt naming the backend; it is never
//     skipped, because a skipped intent is a retry that never happens.
//     NotBefore must lie in 1678..2262 (int64 Unix nanoseconds).
//  3. Your own: run schedulertest.Run against it.
//
// # Running the alarm (the host's job)
//
//  1. At host start: NewWaker(clk, store, maxAttempts, fire), then Rearm.
//  2. After every write the Waker did not cause (a command that scheduled
//     an intent): Rearm. Over-calling is cheap; under-calling strands an
//     intent until some other event re-arms.
//  3. In fire: call RetryPendingSync for each due backend; return an error
//     if any could not be handed over, so it is retried after RetryDelay.
//  4. At shutdown: Stop.
//
// A host with its own alarm (a Durable Object, the simulator) uses the
// rule directly: AlarmRule.Next for the alarm time, AlarmRule.Due when it
// fires, then rule = rule.Settle(handed, stored): the intents it handed
// over and what the store holds afterwards. alarm.go explains which intents count: attempt <=
// maxAttempts, and not equal to one already settled. (Remembering a firing
// time instead strands an intent built before the alarm fired but stored
// after it: the planted bug alarm-handled-time.)
//
// # Failure modes worth knowing
//
//   - Overwriting the single alarm with each Schedule's NotBefore, or
//     cancelling it on each Clear (the articles' design), strands other
//     backends' intents. Always recompute from the whole store.
//   - An exhausted intent stays stored with NotBefore in the past (SPEC §4:
//     exhaustion never clears). Arming the alarm for it again would loop;
//     AlarmRule.Settled is what prevents that.
package scheduler
