package history

import "strings"

// Kind says what an Event records.
type Kind uint8

// The kinds, in no meaningful order. Add new ones at the end: a Kinds set
// is a bit mask over them.
const (
	// HostStart: the host started (the first start, or after a crash or
	// a clean restart). Start is its number, from 1; Marks holds each
	// backend's record position at that moment: calls up to it belong to
	// the previous incarnation.
	HostStart Kind = iota + 1
	// RuntimeCall: one call of a container's record, as the driver reads
	// the records after a step's actors ran (container by container, in
	// call order). Backend is the container's index; Runtime the call.
	RuntimeCall
	// StoreCall: one call of the intent-store wrapper's record, read after
	// the runtime calls of the same step. Store is the call.
	StoreCall
	// GateWait: Actor parked on a gate (a FIFO entry, a shared connect, a
	// pending disconnect) that Maker made.
	GateWait
	// OpReturned: an operation's actor finished; Op holds what it was
	// asked and what it returned. Appended after the step's records.
	OpReturned
	// StepEnd: every actor of a step ran to its end and every operation
	// that finished was appended; the host's state is between steps.
	// Not appended for a step cut by a host restart. Intents holds the
	// intent store's listing.
	StepEnd
	// LocalCall: a call of the workspace (or of the host's store probe)
	// into its local store that the store carried out, made by Actor on
	// the backend Backend (-1: a backend the run does not have, such as
	// the probe's), appended as the call returns. Local holds it.
	LocalCall
	// StoreFailed: a call into the intent store or the local store failed
	// with an error the harness did not inject (it does not wrap
	// faults.ErrInjected): the workspace's call into the local store, at
	// the call, or a call the host made itself (the alarm's List, reading
	// the local state). Failure holds it. The intent store's record shows
	// the workspace's own calls that failed so (faults.StoreCall.Uninjected).
	StoreFailed
	// IntentPlanted: the host wrote Intent into the intent store itself
	// (the planted intents of a scenario), as a host of the original may.
	IntentPlanted
	// DriverFailed: the driver cannot go on with the run: an operation, a
	// timer callback or a host call panicked (no-panic), actors parked
	// with nothing to wake them (no-deadlock), actors switching while no
	// operation finishes (livelock), a timer the simulation cannot
	// schedule (timer-escape), or a call the host made itself into a
	// store failed for a reason that is not the store's own fault (a
	// listing the store cannot give, a reopen refused: Driver.Property
	// names the property that breaks, durability most often). The
	// checker of that property reports it. (A hang is found by the
	// watchdog on another goroutine, after the run's own were frozen: it
	// is the run's verdict without an event.)
	DriverFailed
	// TailBegan: the liveness tail ran every alarm out (or gave up after
	// Tail.Rounds firings, Tail.AlarmStuck) and waited the longest delay,
	// faults off; Intents is the intent store's listing then.
	TailBegan
	// TailEnded: the tail pushed and pulled every backend; Tail holds each
	// backend's local and remote files then.
	TailEnded
	// LocalReopened: a host restart reopened the local store; Durable
	// holds what the store held before and what it holds after, for every
	// backend the restart compares.
	LocalReopened
	// APIProbed: at the host's first start the driver built a workspace
	// of its own with drawn options, ran a retry of its own with a drawn
	// budget, or read the sync modes' names (the API probes); Probe holds
	// what it tried and what came back.
	APIProbed
	// IntentProbed: the intent-store probe at the host's first start (on
	// backends of its own) read the bare store back; IntentProbe holds
	// what the probe had written and what the store answered.
	IntentProbed
	// WakerListed: a timer callback's Waker (or the owning store's host,
	// ownerAlarm) listed the intent store, Actor being the callback.
	// Intents holds the listing (nil when it failed); Alarm.Began the
	// clock as the listing began (the Waker's now, for its first), and
	// Alarm.Err the listing's error ("" for none).
	WakerListed
	// FiringBegan: the Waker handed the backends Alarm.Due to the host's
	// FireFunc, run by Actor (its timer callback); appended before the
	// host does anything with them.
	FiringBegan
	// FiringEnded: the FireFunc of a FiringBegan by Actor returned;
	// Alarm.Outcome says how (not appended for a firing refused as
	// overlapping another).
	FiringEnded
	// Rearmed: a Waker.Rearm returned without an error (it listed the
	// store, or a firing in flight absorbed it), Actor its caller.
	// Alarm.Mark is the intent-store record's position at its call.
	Rearmed
	// TimerReturned: a timer callback whose Waker listed the store
	// returned, Actor the callback, in an incarnation the Waker drives.
	// Alarm.At and Alarm.Set are the alarm as the Waker then had it
	// (Waker.Next); Intents a fresh listing of the store, taken by the
	// driver past the fault wrapper (Alarm.Err set and Intents nil when
	// that listing failed).
	TimerReturned
	// AlarmChecked: the alarm at the step's check, after StepEnd (whose
	// Intents is the listing it is held to). Alarm.Rearmed false: before
	// the host re-armed, as the Waker had it (appended only with a
	// Waker); true: after, as the host follows it (the Waker's or the
	// owning store's). Alarm.At and Alarm.Set hold it.
	AlarmChecked
	// StepCut: a host restart cut the current step short, at the blocking
	// point Point (the actor holding the baton stopped there, before its
	// call). Appended after the step's actors stopped and before its
	// records; the step's finished operations follow, then the restart's
	// HostStart (no StepEnd). Operations that finished in it may have left
	// work to ones that never will.
	StepCut
	// RunEnd: the run's last check is done (the liveness tail passed):
	// nothing more happens that a checker may judge. Trace holds the trace
	// written since the last StepEnd, when a checker asked (SnapTrace).
	RunEnd
	// LocalView: between steps, before StepEnd, the driver's reads of one
	// surviving backend's local cursors and remote (Backend; View holds
	// them), after the LocalFiles of the same check. Appended only when a
	// checker reads it.
	LocalView
	// LocalMutated: right after a LocalCall, a content the local store
	// handed out earlier has changed in place (Mutated holds it). The
	// driver keeps the contents to compare only when a checker reads it.
	LocalMutated
	// PushEntered: Actor's next push to Backend reached its blocking
	// point, before the call (its latest reads of the local store are that
	// batch's). Appended only when a checker reads it.
	PushEntered
	// TailReturned: the liveness tail's actor of Backend (Actor) finished
	// its pull, push and pull, which the driver made itself: Op has Kind
	// "tail", Pushed the count its Workspace.Push returned, StepMarks each
	// backend's record position when the tail began. Appended after the
	// tail's OpReturned events (its push and pulls, for their errors).
	TailReturned
	// LocalFiles: between steps, before the LocalViews, the local store's
	// listing of one backend with acknowledged host writes (Backend; Files
	// holds it), taken when the driver's write ledger says a listing is
	// due (ledger.Writes.Due). Appended only when a checker reads it.
	LocalFiles
	// Drained: the driver read the records after a step's actors ran (the
	// RuntimeCall events before it): Marks holds each container's record
	// position after the drain, Epochs each container's log epoch
	// (faults.Container.LogEpoch) then. Appended only when a checker reads
	// it.
	Drained

	kindCount // the number of kinds plus one
)

var kindNames = [...]string{
	HostStart:     "host-start",
	RuntimeCall:   "runtime-call",
	StoreCall:     "store-call",
	GateWait:      "gate-wait",
	OpReturned:    "op-returned",
	StepEnd:       "step-end",
	LocalCall:     "local-call",
	StoreFailed:   "store-failed",
	IntentPlanted: "intent-planted",
	DriverFailed:  "driver-failed",
	TailBegan:     "tail-began",
	TailEnded:     "tail-ended",
	LocalReopened: "local-reopened",
	APIProbed:     "api-probed",
	IntentProbed:  "intent-probed",
	WakerListed:   "waker-listed",
	FiringBegan:   "firing-began",
	FiringEnded:   "firing-ended",
	Rearmed:       "rearmed",
	TimerReturned: "timer-returned",
	AlarmChecked:  "alarm-checked",
	StepCut:       "step-cut",
	RunEnd:        "run-end",
	LocalView:     "local-view",
	LocalMutated:  "local-mutated",
	PushEntered:   "push-entered",
	TailReturned:  "tail-returned",
	LocalFiles:    "local-files",
	Drained:       "drained",
}

// String is the kind's name, as the registry prints what a checker reads.
func (k Kind) String() string {
	if k > 0 && k < kindCount {
		return kindNames[k]
	}
	return "kind(" + string(rune('0'+k)) + ")"
}

// Kinds is a set of kinds: what a checker reads.
type Kinds uint64

// Of returns the set of the given kinds.
func Of(kinds ...Kind) Kinds {
	var s Kinds
	for _, k := range kinds {
		s |= 1 << k
	}
	return s
}

// Has reports whether k is in the set.
func (s Kinds) Has(k Kind) bool { return s&(1<<k) != 0 }

// String lists the set's kinds, comma-separated, in kind order.
func (s Kinds) String() string {
	var names []string
	for k := Kind(1); k < kindCount; k++ {
		if s.Has(k) {
			names = append(names, k.String())
		}
	}
	return strings.Join(names, ", ")
}
