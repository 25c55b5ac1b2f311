// Package faults is syncsim's fault-injecting world around the system under
// test: a simulated container runtime per backend (Container, a
// workspace.Backend), a scheduler-store wrapper (Scheduler) and swarm fault
// profiles (Profile).
//
// # Usage
//
//  1. Draw a Profile per seed with DrawProfile (or AllOn, Off, Only,
//     ParseProfile) and print Profile.String at the top of the trace.
//  2. Create one Container per backend with NewContainer, each with its own
//     random stream, and wrap the scheduler store with NewScheduler (its
//     own stream too). Pass a Hooks that switches actors at Block; unit
//     tests pass NoHooks.
//  3. Drive scenario operations (Crash, Restart, LoseIdentity, TruncateLog,
//     DropConnections) from the driver, outside any actor.
//  4. After each operation, read Container.RecordSince(mark) (or
//     AppendRecordSince) and Scheduler.CallsSince(mark) to feed the trace
//     and the model.
//  5. For the fault-free liveness tail call SetFaults(false) on every
//     container and on the store, then compare Container.Files with the
//     host's files for every container that Survived.
//
// # Determinism
//
// Every fault decision is drawn from the random stream of the object that
// makes it (one per container, one for the store), under its lock, in call
// order, and only while faults are on and that kind is on. No wall clock,
// no global random source, no goroutines; map iteration only ever computes
// a count or a minimum. Runtime ids are minted in sequence:
// "<backend>-rt1", "<backend>-rt2", …
//
// # Blocking points
//
// Hooks.Block runs at the start of every blocking call, before it has any
// effect and with no lock held, at point "<backend>.<op>" (Op names),
// "store.<op>" (StoreOp names, list included) or "local.<op>". With a Hooks
// that implements ReturnHooks, Return runs at the same point again once the
// call returned, on every return path, with no lock held: the result is
// separated from its use. Handle.RuntimeID, Sync and SyncMode do not block
// on either side (RuntimeID and Sync are recorded all the same). The intent
// store's List blocks on both sides too, but is never a fault and never
// recorded: it is the alarm's read, not the workspace's.
//
// # Remote semantics (SPEC 6.2)
//
// A fresh process has currentRev 1 and an empty store; every
// container-side mutation takes one new rev and stamps it on the paths it
// touches (one command's `write <n>` is one mutation of n paths).
// FetchChanges advertises currentCursor = through when through <
// {currentRev,null}, else {currentRev,null}, and appliedPushCursor = how far
// the remote has applied our pushes. Its stream serves, lazily from the
// current state, one entry per path with after < (rev,path) <=
// currentCursor in (rev,path) order, so a path rewritten after the snapshot
// drops out of this stream and comes with the next pull.
//
// Pushed files: Push applies its batch all-or-nothing and each changed path
// takes a new remote rev, as in the real store, but the path is marked as
// pushed and fetches leave it out while its latest state is the pushed
// one. The host therefore never pulls its own writes back, which keeps
// pull counts about container-side changes only; a later container-side
// write of the same path makes it fetchable again. Pushed files are in
// Files.
//
// # Faults
//
// Per-call kinds (probability per call or per stream):
//
//   - transport-connect: Connect fails ("connection refused").
//   - transport-pre-dispatch: Exec or Push fails before reaching the remote,
//     with the pre-dispatch phrase "rpc stub after it has been disposed".
//   - transport-post-dispatch: Exec's command ran (its writes happened) or
//     Push was applied, then the reply is lost ("websocket closed …").
//     FetchChanges and Watermarks draw it too: a read has no effect.
//   - transport-mid-stream: a change stream fails after k entries (k drawn
//     from [0, entries in range]); an event stream after k of its 2 events.
//   - settle-failure: Watermarks{Settle: true} fails with a non-transport
//     error; the connection stays up.
//   - store-get, store-schedule, store-clear: the store call fails before
//     the inner store is touched (non-transport text).
//
// Every planted failure is an *InjectedError reading "injected <kind>:
// <msg>" and wrapping ErrInjected; with a planter, a fake credential
// follows ("; <credential>") or, one time in four, leads the text
// ("<credential> | injected <kind>: <msg>"). A transport failure kills its
// connection: later calls on it fail with "rpc session was shut down"
// (recorded with no fault of their own). Calls on a connection or stream
// the client closed fail with ErrDisposed.
//
// Armed faults: Container.Arm queues one fault for the next call at a Site
// (connect, fetch, stream, watermarks, settle, push, exec, events), taken
// before the random draw it stands for and recorded exactly like a drawn
// one (Call.Fault, plus Call.Armed). Arming draws nothing, so a scenario
// states exactly which call fails without disturbing the random stream.
// Crash, restart and lost-identity may be armed too: the event happens at
// that call.
//
// Event kinds (weights for the scenario generator):
//
//   - crash: Container.Crash(n). The process dies and open connections
//     break ("container exited"); the next n connects are refused; the one
//     after relaunches the container exactly as Restart does, because the
//     container host relaunches a dead container and a relaunch is a new
//     runtime (SPEC 7). Restart also ends a crash at once.
//   - restart: new runtime id, store wiped (currentRev 1, appliedPushCursor
//     {0,null}), open connections broken.
//   - lost-identity: connections opened from now on report a newly minted
//     id, or none; the log is intact and open connections keep working
//     with the id they learnt at connect time (an id is a property of a
//     connection, not re-learnt on a live WebSocket).
//   - truncated-log: computerd restart under a surviving WebSocket (SPEC
//     8.5): same runtime id, connections survive, store wiped.
//   - host-restart: carried out by the simulator; DropConnections breaks
//     the host's WebSockets.
//
// Survived reports that none of crash, restart, lost-identity or
// truncated-log has happened to a container.
//
// # Commands
//
// Exec runs a command at spawn time; the event stream then yields one
// stdout (or stderr) event and the exit event. The grammar:
//
//	true            nothing, exit 0
//	exit <code>     nothing, exit code
//	write <n>       n new files /out/<seq>-<i> (seq: container-wide command
//	                number, i from 0), content naming process, seq and i;
//	                one mutation, so all n share one rev
//	write <n> <b>   the same, each file padded to exactly b bytes (b at
//	                most 16 MiB): files large enough for the byte budgets
//	write <n> [<b>] rewrite=<r> delete=<d> twins
//	                the same, and in the same rev: r live container-side
//	                files rewritten, d others deleted (the container picks
//	                them; fewer when fewer exist), and with twins the paths
//	                /out/<seq>-Case, -case and -ü (edit.go)
//	put <path>      write path (content naming process and seq); one rev
//	delete <path>   delete a live path (exit 1 if there is none); one rev
//	stage <n>       the files of `write <n>`, staged: the store takes them in
//	                (one rev) only when the pre-fetch reconcile hook runs,
//	                i.e. at Watermarks{Settle: true} or FetchChanges, so a
//	                settled watermark is higher than a plain one (SPEC R10)
//
// Any command may end in `; exit <code>`: it runs, and a command that
// succeeded then exits with code instead of 0 (its writes stay), the way a
// shell script's last line sets its status. Anything else exits 127. Execs lists every command that actually ran,
// so a property can check that a retry never re-runs one.
package faults
