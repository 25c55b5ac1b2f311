package oracle

import "github.com/syncsim/syncsim/sim/history"

// Basis says where a property's expectation comes from (DESIGN.md, "The
// oracle: predict, never copy").
type Basis string

const (
	// Predicted: computed from environment facts alone (the model, the
	// configuration, what the harness injected).
	Predicted Basis = "predicted"
	// Record: read off the runtime's or a store's own record of what the
	// world did, with no decision of the system under test in it.
	Record Basis = "record"
	// Both: a prediction held against the record.
	Both Basis = "predicted + record"
	// Driver: a failure of the run itself (a panic, a deadlock, a hang) that
	// the driver sees and reports.
	Driver Basis = "driver"
)

// Property is one entry of the registry: the one source for the property
// tables in model/doc.go, docs/properties.md and the command's help.
type Property struct {
	// Name is what a violation, a scenario file's expectation and
	// -properties call it.
	Name string
	// Spec is the SPEC.md section (or sections) it holds the code to.
	Spec string
	// Basis is where its expectation comes from.
	Basis Basis
	// What says in one line what it checks.
	What string
	// Family groups properties one checker raises together (they read the
	// same events); "" for a checker of its own.
	Family string
	// New builds the checker of this property (or its family), reporting
	// only the properties want selects. nil: the property is still judged
	// inside the driver (package sim), from its internals — the redesign
	// of issue 31 moves them here one family at a time.
	New func(want func(string) bool) Checker
}

// Reads returns the kinds of event the property's checker reads (zero for
// a property the driver still judges).
func (p *Property) Reads() history.Kinds {
	if p.New == nil {
		return 0
	}
	return p.New(func(string) bool { return true }).Reads()
}

// InOracle reports whether the property is judged by a checker of this
// package from the history alone.
func (p *Property) InOracle() bool { return p.New != nil }

// Lookup returns the registry entry named name, or nil.
func Lookup(name string) *Property {
	for i := range Registry {
		if Registry[i].Name == name {
			return &Registry[i]
		}
	}
	return nil
}

// Names returns every property name, in registry order.
func Names() []string {
	out := make([]string, len(Registry))
	for i, p := range Registry {
		out[i] = p.Name
	}
	return out
}

// Registry lists every property syncsim judges, in the order a run checks
// them when two break at one event. Keep model/doc.go's table and
// docs/properties.md equal to it (TestRegistry* keep them so).
var Registry = []Property{
	{Name: "model", Spec: "1.4, 3, 4, 11.3-11.5, 11.11", Basis: Predicted,
		What:   "every RetryPendingSync result, exec sync result and the store calls each operation makes equal the model's prediction",
		Family: "model", New: newModelChecker},
	{Name: "intent-table", Spec: "11.1, 11.2", Basis: Predicted,
		What:   "between steps, the stored intent table equals the model's (one intent per backend, notBefore from the backoff formula)",
		Family: "model", New: newModelChecker},
	{Name: "attempt-range", Spec: "11.2", Basis: Record,
		What:   "every library-written stored intent has 1 <= attempt <= maxAttempts",
		Family: "model", New: newModelChecker},
	{Name: "alarm", Spec: "1.3, 11 (one alarm)", Basis: Predicted,
		What:   "the alarm is never later than the earliest live unsettled intent, never earlier than anything pending, and fires one at a time",
		Family: "alarm", New: newAlarmChecker},
	{Name: "no-deadlock", Spec: "5.1", Basis: Driver,
		What:   "no step ends with actors parked and nothing to wake them",
		Family: "driver", New: func(func(string) bool) Checker { return DriverChecker{} }},
	{Name: "hang", Basis: Driver,
		What:   "no run stops making progress for the watchdog's wall time (an actor blocked outside the simulator)",
		Family: "driver", New: func(func(string) bool) Checker { return DriverChecker{} }},
	{Name: "livelock", Basis: Driver,
		What:   "no run's actors keep switching while none of its operations finishes (the runtime's decision bound, or the watchdog's time)",
		Family: "driver", New: func(func(string) bool) Checker { return DriverChecker{} }},
	{Name: "no-panic", Basis: Driver,
		What:   "no operation, timer callback or host call panics",
		Family: "driver", New: func(func(string) bool) Checker { return DriverChecker{} }},
	{Name: "retry-never-reexecs", Spec: "11.6", Basis: Record,
		What:   "a retry never runs a command",
		Family: "model", New: newModelChecker},
	{Name: "complete-on-own-runtime", Spec: "7, 11.4", Basis: Record,
		What:   "complete is never reported against a runtime other than the one the intent names",
		Family: "model", New: newModelChecker},
	{Name: "durability", Spec: "6.1, 6.7", Basis: Predicted,
		What: "across host restarts, intents, cursors and local files are exactly what was durably written",
		New:  func(func(string) bool) Checker { return DurabilityChecker{} }},
	{Name: "alarm-progress", Spec: "1.3", Basis: Predicted,
		What:   "virtual time moves on: timers never fire more than 64 times at one instant (an alarm that re-arms at the instant it just handled)",
		Family: "alarm", New: newAlarmChecker},
	{Name: "liveness-intents", Spec: "11 (liveness)", Basis: Predicted,
		What:   "after the fault-free tail no intent is stranded: each is exhausted or retried",
		Family: "liveness", New: func(want func(string) bool) Checker { return &LivenessChecker{want: want} }},
	{Name: "liveness-files", Spec: "11 (liveness)", Basis: Both,
		What:   "after the fault-free tail every backend whose runtime kept its log holds the remote's files locally",
		Family: "liveness", New: func(want func(string) bool) Checker { return &LivenessChecker{want: want} }},
	{Name: "liveness-push", Spec: "6.6, 8.3", Basis: Both,
		What:   "after a lost log and the tail, the host's own files were re-pushed onto the new log",
		Family: "liveness", New: func(want func(string) bool) Checker { return &LivenessChecker{want: want} }},
	{Name: "liveness-converge", Spec: "6.3, 6.4, 6.6", Basis: Both,
		What:   "after a lost log and the tail, every remote file is in the local store, unless a truncation was outrun",
		Family: "liveness", New: func(want func(string) bool) Checker { return &LivenessChecker{want: want} }},
	{Name: "host-write", Spec: "6.1", Basis: Predicted,
		What: "an acknowledged host write persists in the local store",
		New:  func(func(string) bool) Checker { return &HostWriteChecker{} }},
	{Name: "store-error", Basis: Record,
		What: "no store call fails with an error the harness did not inject",
		New:  func(func(string) bool) Checker { return &StoreErrorChecker{} }},
	{Name: "secrecy", Spec: "1.4", Basis: Predicted,
		What: "no planted credential reaches a result, a stored intent or the trace; error texts are redacted and cut",
		New:  func(want func(string) bool) Checker { return &SecrecyChecker{want: want} }},
	{Name: "timer-escape", Basis: Driver,
		What:   "the system under test uses only timers the simulation schedules",
		Family: "driver", New: func(func(string) bool) Checker { return DriverChecker{} }},
	{Name: "dispatch-once", Spec: "11.6", Basis: Record,
		What:   "an exec runs its command once",
		Family: "dispatch", New: func(want func(string) bool) Checker { return &DispatchChecker{want: want} }},
	{Name: "exit-code", Spec: "3.1", Basis: Record,
		What:   "an exec reports the exit code its command's event stream carried",
		Family: "dispatch", New: func(want func(string) bool) Checker { return &DispatchChecker{want: want} }},
	{Name: "connect-bound", Spec: "5.2, 11.10", Basis: Record,
		What:   "at most two connection attempts per sync operation",
		Family: "sync-record", New: func(want func(string) bool) Checker { return &SyncRecordChecker{want: want} }},
	{Name: "defer-never-pulls", Spec: "3.1, 11.11", Basis: Record,
		What:   "a deferred exec never pulls",
		Family: "sync-record", New: func(want func(string) bool) Checker { return &SyncRecordChecker{want: want} }},
	{Name: "wait-pulls", Spec: "3.1, 3.2", Basis: Record,
		What:   "a wait-mode exec pulls after its command",
		Family: "sync-record", New: func(want func(string) bool) Checker { return &SyncRecordChecker{want: want} }},
	{Name: "pull-to-end", Spec: "3.2, 6.3", Basis: Record,
		What:   "a whole pull that completes has read its stream to the end",
		Family: "sync-record", New: func(want func(string) bool) Checker { return &SyncRecordChecker{want: want} }},
	{Name: "apply-batch", Spec: "6.3 step 7, 6.4", Basis: Record,
		What:   "each apply holds exactly the entries its stream served since the last one",
		Family: "apply", New: func(want func(string) bool) Checker { return &AppliedChecker{want: want} }},
	{Name: "batch-budget", Spec: "6.4", Basis: Record,
		What: "a batched pull stops within its entry, byte and wall-time budgets",
		New:  func(func(string) bool) Checker { return &BatchBudgetChecker{} }},
	{Name: "applied", Spec: "1.4, 6.4", Basis: Both,
		What:   "a complete result's Applied is exactly what the last pass changed, within what was served",
		Family: "apply", New: func(want func(string) bool) Checker { return &AppliedChecker{want: want} }},
	{Name: "skipped", Spec: "1.4", Basis: Predicted,
		What:   "a complete result's Skipped is empty, and nil where the API documents nil",
		Family: "model", New: newModelChecker},
	{Name: "cursor-monotone", Spec: "11.7", Basis: Record,
		What:   "the fetch cursor never moves back except when the remote's log was reset",
		Family: "local-view", New: func(want func(string) bool) Checker { return &LocalViewChecker{want: want} }},
	{Name: "fetched-applied", Spec: "8.7", Basis: Both,
		What:   "the fetch cursor never covers an entry the local store lacks",
		Family: "local-view", New: func(want func(string) bool) Checker { return &LocalViewChecker{want: want} }},
	{Name: "pushed-applied", Spec: "6.5", Basis: Both,
		What:   "the push cursor never covers a change the remote did not acknowledge",
		Family: "local-view", New: func(want func(string) bool) Checker { return &LocalViewChecker{want: want} }},
	{Name: "complete-at-target", Spec: "11.8", Basis: Record,
		What:   "complete is reported only when the local store reached the target",
		Family: "model", New: newModelChecker},
	{Name: "fifo", Spec: "5.1, 11.9", Basis: Record,
		What: "mutating operations of one backend never overlap, and different backends never wait for each other",
		New:  func(func(string) bool) Checker { return &FIFOChecker{} }},
	{Name: "fetch-through", Spec: "6.4 step 2", Basis: Predicted,
		What:   "a retry's fetch is bounded by its intent's target",
		Family: "model", New: newModelChecker},
	{Name: "cancel", Spec: "5.1", Basis: Both,
		What: "a cancelled operation abandons cleanly and loses nothing",
		New:  func(func(string) bool) Checker { return &CancelChecker{} }},
	{Name: "push-budget", Spec: "6.5", Basis: Record,
		What: "every push stays within the push batch budget",
		New:  func(func(string) bool) Checker { return &PushBudgetChecker{} }},
	{Name: "push-target", Spec: "6.5", Basis: Both,
		What:   "a push run stops at the target it read",
		Family: "push-target", New: func(want func(string) bool) Checker { return &PushTargetChecker{want: want} }},
	{Name: "push-batch", Spec: "6.5", Basis: Both,
		What:   "each push batch's size and sender cursor are what the local changes predict",
		Family: "push-target", New: func(want func(string) bool) Checker { return &PushTargetChecker{want: want} }},
	{Name: "push-count", Spec: "5.1", Basis: Record,
		What: "Workspace.Push returns the changes the runtime acknowledged",
		New:  func(func(string) bool) Checker { return &PushCountChecker{} }},
	{Name: "local-store", Basis: Predicted,
		What: "every answer of the local store is the local-store model's",
		New:  func(func(string) bool) Checker { return &LocalStoreChecker{} }},
	{Name: "replay", Spec: "5.2", Basis: Record,
		What:   "a transport failure is replayed once; a spawn only when provably not dispatched",
		Family: "replay", New: func(want func(string) bool) Checker { return &ReplayChecker{want: want} }},
	{Name: "invalidate", Spec: "5.2, 5.3", Basis: Record,
		What:   "the connection a transport failure happened on is closed",
		Family: "replay", New: func(want func(string) bool) Checker { return &ReplayChecker{want: want} }},
	{Name: "lost-message", Spec: "5.2 step 1", Basis: Record,
		What:   "a lost after a first-pass transport failure names it",
		Family: "model", New: newModelChecker},
	{Name: "api", Spec: "2.2", Basis: Predicted,
		What: "option validation refuses what SPEC 2.2 refuses and accepts the run's own options",
		New:  func(func(string) bool) Checker { return APIChecker{} }},
	{Name: "error-class", Spec: "5.2, 6.3", Basis: Both,
		What:   "an error's class (errors.Is on the SPEC's sentinels) is the one the record predicts",
		Family: "model", New: newModelChecker},
	{Name: "push-resend", Spec: "6.5-6.7", Basis: Record,
		What: "no push re-sends a change the remote acknowledged and the host recorded",
		New:  func(func(string) bool) Checker { return &PushResendChecker{} }},
	{Name: "handle-leak", Spec: "5.3, 5.4", Basis: Record,
		What: "between steps at most the latest connection to a backend is open",
		New:  func(func(string) bool) Checker { return &HandleLeakChecker{} }},
	{Name: "error-text", Spec: "5.2, 1.4", Basis: Predicted,
		What:   "reconnect wrappers name the configured id and operation; bodies are made safe and cut",
		Family: "model", New: newModelChecker},
	{Name: "dispose-once", Spec: "6.3 step 9", Basis: Record,
		What: "every fetch envelope an operation opened is disposed exactly once",
		New:  func(func(string) bool) Checker { return &DisposeOnceChecker{} }},
}

func newModelChecker(want func(string) bool) Checker { return NewModelChecker(want) }

func newAlarmChecker(want func(string) bool) Checker { return NewAlarmChecker(want) }
