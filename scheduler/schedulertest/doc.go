// Package schedulertest checks that an implementation of
// scheduler.Scheduler behaves as SPEC 1.3 requires, the way
// testing/fstest.TestFS checks an fs.FS.
//
// # Using it
//
//  1. Write an Opener that returns a fresh, empty Instance on every call
//     (a new map, a new file in t.TempDir(), a new key prefix).
//  2. If your store survives a host restart, set Instance.Reopen: the
//     Durable check then writes, reopens and reads back.
//  3. Declare what you cannot do in Options (coarser NotBefore precision,
//     no "" backend id, no List). Everything else is required. A store
//     that truncates NotBefore gets a hint naming the TimePrecision to
//     declare.
//  4. Call Run(t, open, opts) from a test: each check is a named subtest
//     (go test -run 'TestX/RoundTrip'). Outside a test, Check returns one
//     error listing every misbehaviour, or nil.
//
// # What is checked
//
// Get on an empty store, Schedule then Get, upsert, idempotent Clear,
// an exact round trip of every field (absent vs present runtime id and
// target, "" values, the three target shapes, NotBefore to the nanosecond
// and across time zones, attempts 0 and huge), isolation of awkward
// backend ids, no aliasing between stored and returned intents,
// durability across Reopen, concurrent callers (run it under -race), and
// List: present (a host sets its alarm from it: the simulated host in
// scenarios.Check and scheduler.NewWaker both need it) and complete, in
// backend order.
//
// A check never depends on the wall clock or on randomness: a failure
// prints the same intents on every run.
package schedulertest
