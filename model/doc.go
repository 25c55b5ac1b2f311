// Package model is syncsim's reference model: a second, independent
// description of what the retry intent table and every result must be.
//
// It never imports package workspace, the code it judges. It shares only the
// scheduler's data types (Intent, Cursor). Where an outcome depends on what
// the container runtime did — a pull failed, a batch hit its budget, the
// connection reported another runtime, a store call was refused — the model
// is told so by the caller, who reads it from the runtime's and the store
// wrapper's own records, never from the system under test.
//
// Usage:
//
//  1. Start from Empty() with the workspace's Options.
//  2. For every finished operation, call Retry, Exec with the outcome read
//     from the runtime's record; each returns the new State and the result the
//     SUT must have produced. States are values: a step never mutates its input.
//  3. Compare the SUT's intent table with State.Intents, and check
//     Invariants after every step.
//
// The model is short on purpose: if it grows past one sitting, it has
// started to copy the implementation.
//
// # Where each property is judged
//
// Every SPEC section 11 invariant and every SPEC scenario maps to a named
// property. The table is the property registry (package sim/oracle,
// Registry), rendered: "predicted" means the expectation is computed from
// environment facts only (this model, the configuration, what the harness
// injected); "record" means it is read off the runtime's or the store's
// own record of what the world did, with no decision of the system under
// test in it; "driver" marks a failure of the run itself. "checker" means
// a checker of sim/oracle judges it from the run's history alone (this
// model is stepped by oracle.ModelChecker), every property is. `syncsim
// properties` prints what each checks; SPEC 11.12, the QUIRKs, are the
// spec-quirk-* corpus files and workspace's TestQuirk* tests.
//
// <properties:begin>
//
//	property                 SPEC                         basis               judged by
//	model                    1.4, 3, 4, 11.3-11.5, 11.11  predicted           checker
//	intent-table             11.1, 11.2                   predicted           checker
//	attempt-range            11.2                         record              checker
//	alarm                    1.3, 11 (one alarm)          predicted           checker
//	no-deadlock              5.1                          driver              checker
//	hang                     —                            driver              checker
//	livelock                 —                            driver              checker
//	no-panic                 —                            driver              checker
//	retry-never-reexecs      11.6                         record              checker
//	complete-on-own-runtime  7, 11.4                      record              checker
//	durability               6.1, 6.7                     predicted           checker
//	alarm-progress           1.3                          predicted           checker
//	liveness-intents         11 (liveness)                predicted           checker
//	liveness-files           11 (liveness)                predicted + record  checker
//	liveness-push            6.6, 8.3                     predicted + record  checker
//	liveness-converge        6.3, 6.4, 6.6                predicted + record  checker
//	host-write               6.1                          predicted           checker
//	store-error              —                            record              checker
//	secrecy                  1.4                          predicted           checker
//	timer-escape             —                            driver              checker
//	dispatch-once            11.6                         record              checker
//	exit-code                3.1                          record              checker
//	connect-bound            5.2, 11.10                   record              checker
//	defer-never-pulls        3.1, 11.11                   record              checker
//	wait-pulls               3.1, 3.2                     record              checker
//	pull-to-end              3.2, 6.3                     record              checker
//	apply-batch              6.3 step 7, 6.4              record              checker
//	batch-budget             6.4                          record              checker
//	applied                  1.4, 6.4                     predicted + record  checker
//	skipped                  1.4                          predicted           checker
//	cursor-monotone          11.7                         record              checker
//	fetched-applied          8.7                          predicted + record  checker
//	pushed-applied           6.5                          predicted + record  checker
//	complete-at-target       11.8                         record              checker
//	fifo                     5.1, 11.9                    record              checker
//	fetch-through            6.4 step 2                   predicted           checker
//	cancel                   5.1                          predicted + record  checker
//	push-budget              6.5                          record              checker
//	push-target              6.5                          predicted + record  checker
//	push-batch               6.5                          predicted + record  checker
//	push-count               5.1                          record              checker
//	local-store              —                            predicted           checker
//	replay                   5.2                          record              checker
//	invalidate               5.2, 5.3                     record              checker
//	lost-message             5.2 step 1                   record              checker
//	api                      2.2                          predicted           checker
//	error-class              5.2, 6.3                     predicted + record  checker
//	push-resend              6.5-6.7                      record              checker
//	handle-leak              5.3, 5.4                     record              checker
//	error-text               5.2, 1.4                     predicted           checker
//	dispose-once             6.3 step 9                   record              checker
//
// <properties:end>
package model
