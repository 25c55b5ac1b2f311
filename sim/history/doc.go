// Package history is the run's record: typed events the driver (package
// sim) appends as the simulated world moves, and the interface through
// which a judge reads them.
//
// The driver runs the world — the clock, the actors, the containers, the
// stores, host starts and crashes, the alarm — and judges nothing. Every
// thing that happened is an Event: a host start, a runtime or intent-store
// call with its outcome and whether the harness injected its fault, an
// actor parking on a gate another actor made, an operation returning with
// its result, the end of a step, what the alarm did (a timer callback's
// listing, a firing, a re-arm, the alarm at a check). A Judge (package sim/oracle holds the
// project's) reads the events it declares in Reads, in the order they were
// appended, and reports a broken property through a Reporter; the driver
// turns the first report into the run's violation.
//
// Usage contract:
//
//  1. The driver calls Reset with the run's Setup before the first event;
//     a History is reused from run to run, its buffers kept.
//  2. Every event goes through Append, in the order the world made it. An
//     event carries pointers into the fault wrappers' records (Runtime,
//     Store): they stay valid for the run and must not be changed.
//  3. Append hands the event to the judge when the judge reads its Kind;
//     an event nobody reads costs a slice append.
//  4. Events lists what was appended, for a checker that reads the whole
//     history at the end of a run (a user's invariant over their store).
//
// Import rule: this package may import the fault wrappers' record types
// (faults), the scheduler and workspace value types, and nothing of the
// driver or the model.
package history
