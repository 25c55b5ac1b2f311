package history

import (
	"strconv"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// Event is one thing that happened in a run. Which fields are set depends
// on Kind (see the Kind constants); the others are zero.
type Event struct {
	Kind Kind
	// At is the virtual time since the run's start.
	At time.Duration
	// Actor is the actor the event belongs to ("" for the driver).
	Actor string
	// Backend is the backend's index for RuntimeCall and OpReturned.
	Backend int

	Start   int               // HostStart: the start's number, from 1
	Marks   []int             // HostStart, Drained: each backend's record position
	Runtime *faults.Call      // RuntimeCall
	Store   *faults.StoreCall // StoreCall
	Maker   string            // GateWait: the actor that made the gate
	Op      *Op               // OpReturned, TailReturned
	Local   *Local            // LocalCall
	Failure *StoreFailure     // StoreFailed
	Intent  *scheduler.Intent // IntentPlanted
	Driver  *DriverFailure    // DriverFailed
	Tail    *Tail             // TailBegan, TailEnded
	Durable *Durable          // LocalReopened
	Probe   *Probe            // APIProbed
	// IntentProbe is an intent-store probe's read (IntentProbed).
	IntentProbe *IntentProbe
	// Intents is the intent store's listing, sorted by backend, at
	// StepEnd: taken by the driver between steps (nil when the run has no
	// intent store).
	Intents []scheduler.Intent
	// OwnsAlarm, at HostStart: the incarnation's intent store sets the
	// host's alarm itself (sim.AlarmOwner), so no Waker runs.
	OwnsAlarm bool
	// Alarm is what an alarm event records (the kinds from WakerListed on).
	Alarm *Alarm
	// Point is the blocking point a cut step stopped at (StepCut).
	Point string
	// Trace is what the trace recorded since the last StepEnd (StepEnd,
	// RunEnd), as records (event.NextRecord splits them,
	// event.Record.AppendText renders one's line), when a checker asked
	// for it (SnapTrace). It is the trace's own buffer: valid while the
	// event is observed.
	Trace   []byte
	View    *View    // LocalView
	Mutated *Mutated // LocalMutated
	Files   *Files   // LocalFiles
	Epochs  []int    // Drained: each container's log epoch
}

// Alarm is what the driver records of the host's alarm at an alarm event;
// which fields are set depends on the event's Kind.
type Alarm struct {
	// Began: WakerListed, the clock as the listing began.
	Began time.Time
	// Err: WakerListed, TimerReturned, an error's text.
	Err string
	// Due: FiringBegan, the backends handed over, sorted.
	Due []string
	// Outcome: FiringEnded.
	Outcome FiringOutcome
	// Mark: Rearmed, the intent-store record's position at the call.
	Mark int
	// At and Set: TimerReturned, AlarmChecked, the alarm (Set false:
	// unset).
	At  time.Time
	Set bool
	// Rearmed: AlarmChecked, after the host re-armed.
	Rearmed bool
}

// FiringOutcome is how a firing's FireFunc returned.
type FiringOutcome uint8

const (
	// FiringAborted: nothing was handed over (no listing of its own in
	// the callback, or the wait for the retries was cut).
	FiringAborted FiringOutcome = iota
	// FiringRejected: a retry returned an error; the Waker hands
	// everything over again after its retry delay.
	FiringRejected
	// FiringAccepted: every retry returned; the next listing of the
	// callback settles what was handed over.
	FiringAccepted
)

// Op is an operation as it returned: what it was asked to do and what it
// returned. It is the client side of Jepsen's history: a checker compares
// it with what the records say the world did.
type Op struct {
	// Kind is "exec", "retry", "pull", "write" or "delete" (or "tail",
	// in a TailReturned event).
	Kind string
	// Mode is an exec's sync mode.
	Mode workspace.ExecSync
	// Path, Size and Version describe a host write or delete: the path,
	// the size its content was padded to (0: as it is) and its version.
	Path    string
	Size    int
	Version int
	// Exactly one of the results is meaningful, by Kind.
	Exec  workspace.ExecResult
	Retry workspace.RetryResult
	Pull  workspace.PullResult
	Err   error
	// CancelHit: a cancel the harness made landed on the operation,
	// wherever it landed. Cancelled: the operation was cancelled while
	// parked before any call of its own (the cancel property judges it
	// alone).
	CancelHit, Cancelled bool
	// Calls are the operation's own runtime calls since its step began,
	// in order, with the local-store faults it met inserted where they
	// fired (Op faults.OpLocalStore). Valid while the event is observed.
	Calls []faults.Call
	// Commands are the commands an exec's actor ran on its backend, in
	// order (the container's own log; nil for other kinds).
	Commands []faults.Execution
	// StepMarks holds each backend's record position when the operation's
	// step began: the runtime calls since then are Runtime(b, StepMarks[b]).
	StepMarks []int
	// StoreMark is the intent store's record position when the step
	// began: the operation's store calls are Records.StoreSince(StoreMark)
	// made by its actor.
	StoreMark int
	// Begun is when the operation's actor first ran (a retry's batch
	// started no earlier: its wall-time budget is bounded from it).
	Begun time.Time
	// PushRevReads are the reads of the backend's scalar pushRev the
	// operation made (SPEC 6.3 step 1), as the local store answered them
	// (property local-store holds each answer to its model), in order.
	PushRevReads []PushRevRead
	// FetchCursor is the local store's fetch cursor of the backend, read
	// by the driver when the operation returned and the cursor cannot
	// have moved back since its pull (AtTargetReadable); nil otherwise.
	FetchCursor *scheduler.Cursor
	// Pushed is the count the liveness tail's Workspace.Push returned
	// (TailReturned).
	Pushed int
	// Stored numbers a host write or delete's write-file call among all
	// that reached the local store (0: none did): two writes of one path
	// acknowledged in the other order than they reached the store.
	Stored int
}

// Tail is the liveness tail's state (Liveness): environment facts the
// driver read, never the system under test's.
type Tail struct {
	// AlarmStuck: at TailBegan, the alarm was still set after Rounds
	// firings, and the tail gave up.
	AlarmStuck bool
	Rounds     int
	// Backends holds, at TailEnded, each backend's state by index.
	Backends []TailBackend
}

// TailBackend is one backend at the end of the liveness tail.
type TailBackend struct {
	// Local and Remote are the local store's files and the container's,
	// sorted by path; shared with the driver, read-only.
	Local, Remote []workspace.File
	// LogLost: the runtime lost its log at some point of the run.
	// Reconnected: the last loss broke the connections, so the host had
	// to reconnect and reconcile (SPEC 8.5).
	LogLost, Reconnected bool
	// Blind: a truncation outran what the host could see, so the remote's
	// new log need not be in the local store (liveness-converge).
	Blind bool
}

// Probe is one API probe (APIProbed): What names it — "retry-options"
// (a workspace built with Retry: Err is what the build returned),
// "budget" (a retry of a workspace of the probe's own run with Budget:
// Result and Err are what it returned) or "sync-mode-names" (Names holds
// SyncNone's and SyncRemote's String()).
type Probe struct {
	What   string
	Retry  workspace.RetryOptions
	Budget workspace.Budget
	Result workspace.RetryResult
	Err    error
	Names  [2]string
}

// IntentProbe is one read of the intent-store probe: Call names it in
// words; Want is what the probe had written there (the rows of its probe
// backends, sorted; one row or none for a get), Got what the store
// answered. A get sets Found (the store found an intent) and Has (the
// probe had written one); a listing sets List and Sorted (the whole
// listing, probe rows or not, was ordered by backend id).
type IntentProbe struct {
	Call       string
	Want, Got  []scheduler.Intent
	List       bool
	Sorted     bool
	Has, Found bool
}

// Durable is the local store's durable state around a host restart:
// Before, read from the store the crashed host held, and After, from the
// one the new host opened, backend by backend in the same order.
type Durable struct {
	Before, After []LocalBackend
}

// LocalBackend is everything the local store holds durably for one
// backend: files with content and revision, the fetch cursor, the
// path-aware push cursor, the legacy scalar pushRev and the local
// revision.
type LocalBackend struct {
	Files   []workspace.File
	Fetch   scheduler.Cursor
	Push    scheduler.Cursor
	PushRev int64
	Rev     int64
}

// DriverFailure is what the driver saw fail (DriverFailed): the property
// it breaks and what was seen.
type DriverFailure struct {
	Property, Detail string
}

// PushRevRead is one read of a backend's scalar pushRev: Pos is the
// backend's record position at the read (the read belongs to the first
// fetch recorded after it), Rev what the store held.
type PushRevRead struct {
	Pos int
	Rev int64
}

// Local is a call into the workspace's local store that the store carried
// out (a call the fault wrapper failed never reached it): its arguments
// and what the store returned. The slices are the ones the call passed or
// returned, shared with the workspace and the store: valid while the event
// is observed.
type Local struct {
	// Op names the store method in words: "write-file", "apply-upstream",
	// "files", "current-rev", "local-changes", "fetch-cursor",
	// "write-fetch-cursor", "write-fetch-cursor-if-ahead", "push-rev",
	// "set-push-rev", "push-cursor", "write-push-cursor".
	Op string
	// Cursor is the cursor a cursor write wrote, or a cursor read returned
	// (fetch-cursor, push-cursor) as the store returned it.
	Cursor scheduler.Cursor
	// Remote is where the backend's remote stood at the call, for the
	// calls a checker needs it for (a push cursor write).
	Remote Remote
	// Store is the backend id the call named (the event's Backend is -1
	// for one the run does not have: the store probe's).
	Store string
	// Path, Content and Deleted are a write-file's arguments.
	Path    string
	Content []byte
	Deleted bool
	// Changes are apply-upstream's argument, or what local-changes
	// returned.
	Changes []workspace.Change
	// After, Through and Limit are local-changes' arguments.
	After, Through scheduler.Cursor
	Limit          int
	// Files is what files returned.
	Files []workspace.File
	// Rev is the revision write-file, current-rev or push-rev returned, or
	// the one set-push-rev wrote.
	Rev int64
	// N is the count apply-upstream returned; OK what
	// write-fetch-cursor-if-ahead returned.
	N  int
	OK bool
	// Pos is how far the backend's runtime record had got at the call
	// (faults.Container.Mark), for apply-upstream and push-rev: which pass
	// of an operation an apply belongs to, which fetch a pushRev read
	// precedes.
	Pos int
}

// View is the driver's snapshot, between steps, of one backend whose
// runtime kept its whole log (faults.Container.Survived): the host's own
// reads of the local store's cursors (the bare store: no fault injected).
type View struct {
	// Fetch and Push are the stored fetch and push cursors, as the store
	// returned them.
	Fetch, Push scheduler.Cursor
	// CurrentRev is the remote's current revision, AppliedPush its
	// applied-push cursor (its watermarks' FetchCursor).
	CurrentRev  int64
	AppliedPush scheduler.Cursor
	// Listed: the listings below were taken. The driver lists both sides
	// only when one of the two cursors moved since the backend's last
	// view, or the host restarted since (between those, neither side of
	// what they compare can legitimately change).
	Listed bool
	// Local and Remote are the local store's and the container's files,
	// in path order; Tombstones the remote's deletes (the container's
	// own record). Shared with the driver: valid while observed.
	Local, Remote []workspace.File
	Tombstones    []scheduler.Cursor
}

// Files is the local store's listing of one backend (Backend), taken by the
// driver between steps (LocalFiles). Shared with the driver: valid while
// observed.
type Files struct {
	Files []workspace.File
}

// Mutated is a content the local store handed out (Files, LocalChanges)
// that changed in place afterwards, as the driver found it right after a
// later call (the LocalCall event before this one): the driver keeps a
// copy of each small content handed out, because the change is in the
// memory the store shares, not in any answer.
type Mutated struct {
	// After and Store name the call after which the change was found.
	After, Store string
	// Op and From name the call that handed the content out; Path and Rev
	// the content.
	Op, From, Path string
	Rev            int64
	// Was is what it held when handed out, Now what it holds.
	Was, Now []byte
}

// Remote is a snapshot of a backend's container, taken by the driver at an
// event: environment state, never the system under test's.
type Remote struct {
	// Mark is the container's record length (faults.Container.Mark).
	Mark int
	// LogEpoch counts the times the remote's log was emptied.
	LogEpoch int
	// AppliedPush is the remote's applied-push cursor (its watermarks'
	// FetchCursor): how far it took the host's pushes.
	AppliedPush scheduler.Cursor
}

// StoreFailure is a store call that failed by itself: Store is "intent
// store" or "local store", Op the call in words, Backend the backend it
// named ("" for none), Err the error's text.
type StoreFailure struct {
	Store, Op, Backend, Err string
}

// StoreErrorText describes a store call that failed by itself: which store,
// which call on which backend ("" for none), by whom, and the error.
func StoreErrorText(store, op, backend, actor, err string) string {
	call := store + " " + op
	if backend != "" {
		call += " " + backend
	}
	return call + " (by " + actor + ") failed, not injected by the harness: " + strconv.Quote(err)
}
