// Package workspace is the system under test: the durable sync-retry state
// machine of docs/SPEC.md sections 1–7, re-implemented in Go. A host keeps files
// in a local Store, pushes them to container backends before each command
// and pulls the command's changes back; when a pull cannot finish it records
// one retry intent per backend in a scheduler.Scheduler and retries later
// with bounded exponential backoff.
//
// # Runbook
//
//  1. Build: New(Options{Backends, Clock, Store, Scheduler, Retry}). Clock
//     and Store are required, backend ids unique and non-empty; the first
//     backend is the default (id ""). Retry fields left zero take the
//     defaults 1s / 60s / 5 (a Go deviation: TypeScript rejects an explicit
//     0; a Go struct cannot tell "0" from "not supplied"). Other invalid
//     values fail with "Workspace retry.<name> must be a positive integer".
//  2. Run commands: Exec(ctx, cmd, ExecOptions{Sync}). Every command is
//     push → spawn → stream → post-command step, and Exec returns only
//     after the step, so an intent it needed is already durable.
//     SyncWait pulls at once; on failure it stores an unfenced attempt-1
//     intent (coalescing into an existing same-runtime one). SyncDefer never
//     pulls: it settles the remote, captures its current rev as the intent's
//     target and stores it (widening a same-runtime target); it needs a
//     Scheduler and fails before any push without one.
//  3. Retry: when an intent's NotBefore is due the host calls
//     RetryPendingSync(ctx, backend, nil). The result is idle, complete
//     (intent cleared), pending (rescheduled: attempt+1 after a failure,
//     attempt 1 after a budget-bounded batch), exhausted (intent kept,
//     unchanged) or lost (the runtime that owned the changes is gone;
//     intent cleared). The library never checks NotBefore and never touches
//     an alarm: waking up on time is the host's job.
//  4. Shut down: Close drops and closes cached handles. The workspace stays
//     usable; the next operation connects afresh.
//
// # Guarantees
//
//   - Per backend, Push, Pull, RetryPendingSync, the pre-exec push, the
//     post-exec pull and intent scheduling run one at a time in strict
//     arrival order (a FIFO, not a semaphore); a failed entry does not fail
//     the next; backends never wait for each other. Spawn, event streaming
//     and host-side file writes are not serialized.
//   - Each sync operation gets at most one reconnect retry after a transport
//     failure (IsTransportFailure). A command spawn is replayed only when the
//     failure provably happened before dispatch (PreDispatchTransportError).
//   - A retry of an intent that names a runtime only pulls from a connection
//     to that runtime; otherwise it reports lost (ExecutionLostError,
//     Code "EEXEC_LOST").
//   - Error strings in results pass through the SPEC 1.4 sanitiser
//     (control characters, credential redaction, 512 characters).
//
// # Determinism contract (for the simulator)
//
// The workspace starts no goroutines: every method runs on its caller's
// goroutine and blocks only inside calls to Backend, Handle, SyncRPC, event
// and change streams, the Scheduler and Gate.Wait. Its mutex is held only
// around map reads and writes, never across such a call. Time comes only
// from Options.Clock; nothing iterates a map to decide or print. The FIFO's
// ordering logic is production code; a simulator replaces only the wait
// (Options.Parker), so it alone decides which actor runs next.
//
// # Planted bugs
//
// syncsim's harness can switch on deliberately wrong variants, each one bit
// test on its code path and free when off, to prove that it finds real bug
// classes. They are not part of this API: the set lives in an internal
// package and only workspace/planttest builds a workspace with bugs planted.
// New always builds the correct code.
//
// # Deviations from the TypeScript
//
//   - A zero RetryOptions field means "default" (see step 1).
//   - Exec returns the command's exit code (NoExitCode without an exit
//     event) and, when the event stream fails or ctx ends while streaming,
//     both the pending result and the error.
//   - A deferred command whose caller cancels ctx is drained and settled
//     under context.WithoutCancel(ctx): a Go stream cannot be read with a
//     cancelled context. Events after the cancel are not delivered.
//   - A caller whose ctx ends while queued in the FIFO leaves without
//     running; the order of the others is unchanged.
//   - EEXEC_LOST is detected with errors.As along the wrap chain (the
//     TypeScript reads the outer error's code); the two agree for every
//     error this package builds.
//   - Handle has no `closed` notification, so the TypeScript's watcher on it
//     does not exist here; transport failures invalidate handles instead.
//   - Reattach (getExec), kill, module backends, read-only mount skips and
//     filesystem-only workspaces are out of scope.
package workspace
