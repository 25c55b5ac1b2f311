// Package oracle holds the parts of syncsim's judge that stand on their own:
// watchers the driver (package sim) feeds with the records of a run — the
// fault wrappers' typed calls, plain values such as backend indexes, record
// positions and log epochs, the local store's listings — and that say, from
// those alone, whether a property broke. Each is a small value with a
// documented API and unit tests of its own; an Oracle groups them.
//
// Import rule: this package may import the model, the faults package's
// record types, scheduler and workspace types and sim/event; it never
// imports package sim (the driver). The driver owns the run — the clock,
// the actors, the stores, the trace — and hands the oracle what happened;
// the oracle never reaches back into it. It returns what it found (a
// description of the breach, a bound, a yes or no); the driver turns that
// into a violation of the named property, so which property fires, and
// when, is unchanged by where the logic lives.
//
// What lives here, and the property each feeds:
//
//   - ServedLedger (served.go): which entries each backend's streams served
//     first, and the bounds on a complete pull's Applied (applied).
//   - FIFOLedger and SyncSpans (fifo.go): mutating operations of one backend
//     never overlap, from the intent store's and the runtime's records
//     (fifo, SPEC 11.9).
//   - LeakWatch (leak.go): at most one open connection per backend between
//     steps (handle-leak, SPEC 5.3, 5.4).
//   - ResendWatch (resend.go): no push re-sends what the host recorded as
//     acknowledged (push-resend, SPEC 6.5-6.7).
//   - TruncationWatch (truncation.go): which lost logs the host could not
//     see, and so is not held to convergence (liveness-converge).
//   - AckedWrites and FileIndex (writes.go): every acknowledged host write
//     is in the local store (host-write, SPEC 6.1).
//
// Much of the judge still lives in package sim (host_judge.go,
// host_derive.go, host_check.go): it reads the host's internals — the
// model's intent table as the host keeps it, the stores, the alarm, the
// epochs and call records per actor — and moving it is a redesign, not a
// move (DESIGN.md, "The oracle: predict, never copy").
package oracle
