// Package oracle is syncsim's judge: the property registry, and one
// checker per property (or family of properties) that reads a run's
// history — the typed events of package sim/history — and reports what it
// finds, naming the property.
//
// # The registry
//
// Registry lists every property a run judges: its name (what a violation,
// a scenario file's expectation and -properties call it), the SPEC section
// it holds the code to, its basis (predicted from environment facts, read
// from a record, or a failure of the driver itself), a line saying what it
// checks, and the constructor of its checker. It is the one source of the
// property tables in model/doc.go and docs/properties.md
// (TestRegistryTables) and of `syncsim properties`. Every property has a
// checker here; the driver's own failures (a panic, a deadlock, a
// livelock, an escaped timer, a hang) reach DriverChecker as events.
//
// # Checkers
//
// A Checker is a history.Judge: Reads declares the kinds of event it
// reads, Begin starts a run, Observe reads one event and reports through a
// history.Reporter. Each lives in a check_*.go file of its own, with a
// test that feeds it events by hand. Select builds the checkers of the
// selected properties and Compose runs them in order (Jepsen's compose);
// Judge.Costing times each for `syncsim bench -by-property`. A user's own
// checker is written the same way (scenarios.SuiteOptions.NewCheckers).
//
// # Watchers
//
// The rules of several properties are small values with their own API and
// tests (LeakWatch, FIFOLedger, SyncSpans, ResendWatch, ...); a checker
// feeds one from the events. Two accounts the driver keeps too, its own
// copy, to drive the world (package sim/ledger): the acknowledged host
// writes (host-write's) and the entries each stream served (applied's).
//
// Import rule: this package may import the model, the event types
// (sim/history, sim/event), the ledgers (sim/ledger), the faults
// package's record types and the scheduler and workspace value types; it
// never imports package sim, the driver (scenarios.TestLayout). It returns what it found; the driver turns the first report into
// the run's violation.
package oracle
