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
// # Where each SPEC section 11 invariant is checked
//
// Properties are named as sim.Properties names them. "Predicted" means the
// expectation is computed here (or in sim's checks) from environment facts
// only; "record" means it is read off the runtime's or the store's own
// record of what the world did, with no SUT decision in it; "derived" means
// the environment fact is still inferred from how the SUT used the runtime
// (sim/host_derive.go: how a pull ended), which issue 8 item 3 replaces.
//
//	11.1  one intent per backend, upserts     intent-table            predicted (Retry, Exec: the table)
//	11.2  1 <= attempt <= max, notBefore      attempt-range,          record (the store's table);
//	      formula                             intent-table            predicted (notBefore from backoff)
//	11.3  only complete/lost clear; exhausted model (store calls),    predicted from a derived pull outcome
//	      and idle untouched; pending writes  intent-table
//	      one schedule
//	11.4  lost needs runtimeId + EEXEC_LOST   model,                  predicted; record (the runtime
//	                                          complete-on-own-runtime that answered each fetch, and
//	                                                                  which failures it raised as
//	                                                                  EEXEC_LOST itself)
//	11.5  progress resets attempt, adopts     model, intent-table     predicted from a derived pull outcome
//	      target; failures keep it, +1
//	11.6  a retry never re-runs the command;  retry-never-reexecs,    record (Container.Execs by actor)
//	      an exec runs it once                dispatch-once, exit-code
//	11.7  fetch cursor monotone but resets    cursor-monotone         record + local store, on logs that held
//	11.8  complete only at the target         complete-at-target      record (the fetch's snapshot) +
//	                                                                  local store
//	11.9  same-backend mutations never        fifo                    record (store calls in order;
//	      overlap                                                     runtime calls: no fetch or push
//	                                                                  inside another actor's stream,
//	                                                                  retry, explicit pull, post-command
//	                                                                  step or pre-exec push pass)
//	11.10 at most 2 connection attempts per   connect-bound           record (connects by actor)
//	      sync operation
//	11.11 deferred exec never pulls, always   defer-never-pulls,      record; predicted
//	      pending, stores an intent           model
//	11.12 the QUIRKs                          spec-quirk-* corpus files and workspace TestQuirk* tests
//
// Beyond section 11: fetch-through (SPEC 6.4 step 2: a retry's fetch is
// bounded by the intent's target, predicted from the model's table), applied (Applied exact: the sum of what the
// last pass's applies changed, each counted by LocalStore; also bounded by the entries served), skipped (Skipped of a
// complete result is empty, and nil where the Go result documents nil when none: predicted, since no simulated
// backend has a read-only mount), local-store (every
// answer of the local store is LocalStore's, which is fed the calls that reached the store and never their answers:
// predicted; one run in four also probes the store at its edges on a backend of its own), replay (SPEC 5.2: a
// transport failure of a reconnecting operation is replayed once, a spawn only when provably not dispatched: record,
// with the failure's class fixed by the harness that made it), invalidate (SPEC 5.2, 5.3: the connection such a
// failure happened on is closed: record), batch-budget (SPEC 6.4 entry budget),
// push-budget and push-count (SPEC 6.5 push batches, read from the record),
// push-batch and push-target (SPEC 6.5: each batch's size and sender cursor,
// and the run's target, predicted from what the batch's reads of the local
// store found by LocalStore),
// pull-to-end and wait-pulls (SPEC 3.2, 6.3), apply-batch (SPEC 6.3 step
// 7, 6.4, S10, S11, R4: each apply holds exactly the entries its stream
// served since the last one, PULL_BATCH_SIZE of them for pullOnce unless
// the stream has ended, one for pullBatch: record), fetched-applied (SPEC 8.7:
// the cursor never covers an entry the local store lacks, nor a delete it
// still holds the file of), host-write (an
// acknowledged host write persists), secrecy (SPEC 1.4), store-error (a
// store failure the harness did not inject), lost-message (SPEC 5.2 step 1:
// a lost after a first-pass transport failure names it: record), api (SPEC
// 2.2 option validation, predicted from drawn options; and the run's own
// valid options accepted at every host start), alarm (the one-alarm rule:
// never later than the earliest live unsettled intent, never earlier;
// predicted from the model's table and the judge's own settled set,
// Settled, whose intents compare by SameIntent; and one firing at a time:
// read from the host's own hand-overs), error-class (the SPEC's
// sentinels through errors.Is: the class of an explicit pull's, the tail's
// first pull's or an exec's error is predicted from the record, the
// cross-side assertion from the remote's applied-push cursor and the pushRev
// the store model says the pull read), push-resend (SPEC 6.5-6.7: no push
// re-sends a change the remote acknowledged and the local store recorded
// while the remote's log stood: record + local store), error-text (SPEC
// 5.2's reconnect wrappers name the configured id, JSON-quoted, and an
// operation the SPEC gives: predicted from the configuration; a pull a
// transport failure ended, by the record, reports the second-pass wrapper,
// its body the two failures of the record made safe by SPEC 1.4 and cut to
// 160 and 240 UTF-16 units), handle-leak (SPEC
// 5.3, 5.4: between steps at most the latest connection is open: record),
// dispose-once (SPEC 6.3 step 9: every fetch envelope an operation opened
// is disposed exactly once: record), and the liveness properties,
// liveness-converge among them (a lost log converges unless a truncation
// was outrun before the host could see it: sim/oracle/truncation.go).
package model
