package sim

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
	"github.com/syncsim/syncsim/workspace/planttest"
)

// SchedulerFactory opens the host's retry-intent store. The host calls it at
// every start — the first and after each host restart — so a durable
// implementation is reopened from what it wrote, and one that forgets at
// restart is caught. dir is a directory private to this run ("" when the run
// has none; then only in-memory stores can be used).
type SchedulerFactory func(dir string) (scheduler.Scheduler, error)

// StoreFactory opens the workspace's durable local store (files and
// cursors) at every host start, like SchedulerFactory.
type StoreFactory func(dir string) (workspace.Store, error)

// MemoryStore returns a factory whose MemoryStore survives host restarts.
func MemoryStore() StoreFactory {
	m := workspace.NewMemoryStore()
	return func(string) (workspace.Store, error) { return m, nil }
}

// MemoryScheduler returns a factory whose Memory survives host restarts, as
// the durable storage of a Durable Object does.
func MemoryScheduler() SchedulerFactory {
	m := scheduler.NewMemory()
	return func(string) (scheduler.Scheduler, error) { return m, nil }
}

// AlarmPolicy selects how the simulated host sets its single alarm.
type AlarmPolicy int

const (
	// AlarmByRule runs the production scheduler.Waker: the correct host.
	AlarmByRule AlarmPolicy = iota
	// AlarmHandledTime is this project's own first alarm rule, which
	// syncsim found wrong: after a firing at T it treated every intent due at
	// or before T as handled, so an intent built before T that landed after
	// the firing was stranded. Kept as a planted bug in the production
	// Waker's code path (scheduler/planttest.HandledTime).
	AlarmHandledTime
	// AlarmNoSettle is a Waker that settles nothing it handed over, so an
	// exhausted intent the retry left as it was keeps the alarm firing for
	// it (scheduler/planttest.NoSettle). A planted bug: the alarm is set
	// earlier than anything pending.
	AlarmNoSettle
	// AlarmSingleOverwrite is the design of the seed articles: each Schedule
	// sets the alarm to its own NotBefore, each Clear cancels it (the store
	// is wrapped in singleAlarm). A planted bug: an intent can be stranded.
	AlarmSingleOverwrite
	// AlarmStaleRearm is a Waker that re-arms after a firing from the
	// listing it took right after the hand-over, not from a fresh one
	// (scheduler/planttest.StaleRearm). A planted read-then-act bug: an
	// intent a request stores meanwhile, re-arming while the firing is in
	// flight (a no-op), is stranded. Only a switch right after that
	// listing returns opens the window.
	AlarmStaleRearm
)

// Config shapes one simulated run.
type Config struct {
	Seed     uint64
	Backends int
	// Retry is the workspace's backoff; zero fields take the defaults.
	Retry workspace.RetryOptions
	// Budget is passed to every RetryPendingSync (nil: the default budget).
	Budget *workspace.Budget
	// PushBatch is the workspace's push batch budget (zero fields: SPEC
	// 6.5's PUSH_BATCH); property push-budget holds every push to it.
	PushBatch workspace.PushBudget
	// Mutant plants bugs in the workspace (zero: the correct code).
	Mutant planttest.Set
	// Profile is the swarm fault profile of this run.
	Profile faults.Profile
	// Scheduler opens the intent store at each host start (nil: memory).
	Scheduler SchedulerFactory
	// LocalStore opens the workspace's local store at each host start (nil:
	// a MemoryStore kept across restarts). A file-backed store is closed at
	// a host restart and reopened, and what it returns must equal what it
	// held: the durability property.
	LocalStore StoreFactory
	// NoScheduler builds the workspace without a scheduler (SPEC 3.3 step
	// 1): no intent is ever stored, so the alarm never sets; Scheduler is
	// ignored.
	NoScheduler bool
	// NoRuntimeID names a backend ("b1") whose container never reports a
	// runtime id (faults.Container.SetAnonymous): its intents are all
	// unfenced. "" for none.
	NoRuntimeID string
	// SyncNone names a backend ("b1") whose handles do not sync (SPEC 4:
	// handle.sync == "none"; faults.Container.SetSyncNone); "" for none.
	SyncNone string
	// BackendIDs are the ids the workspace knows the backends by, in
	// order (nil: "b0", "b1", ...). A backend is still labelled "bN" by
	// its index where a label is drawn from or written (random streams,
	// NoRuntimeID, scenario files); the id is what the system under test,
	// the stores and the trace see.
	BackendIDs []string
	// Alarm is the host's alarm policy.
	Alarm AlarmPolicy
	// Dir is private to the run, for file-backed stores ("" for none).
	Dir string
	// TraceKeep bounds the trace lines held in memory (0: all).
	TraceKeep int
	// TimePrecision is the granularity at which the intent store keeps
	// NotBefore (0: the nanosecond, as both stores here do). The intent
	// table is compared with both sides truncated to it, so a store that
	// keeps milliseconds (the original's Date.now() resolution) can be
	// checked; every other field stays exact.
	TimePrecision time.Duration
	// Strategy decides the interleaving at every choice point (nil:
	// uniform); DrawStrategy draws one per seed.
	Strategy Strategy
	// NoProbes keeps the first host start from probing the stores and the
	// workspace apart from the run (host_storeprobe.go and its siblings),
	// for a test of what the run's own operations reach.
	NoProbes bool
	// Judge reads the run's history as it is appended and reports what
	// it finds (history.Judge): the caller builds it (package sim/oracle's
	// checkers, scenarios.Run does) and a report becomes the run's
	// violation. A judge keeps state across one run's events, so every
	// Host needs a fresh one. nil: nothing is judged but the driver's own
	// failures (a panic, a deadlock, a hang).
	Judge history.Judge
	// Judged says which properties the judge was built to report. A
	// failure the driver meets itself, naming a property Judged rejects
	// (a store that cannot be read back while durability is left out), is
	// not reported and the run goes on. nil: every property.
	Judged func(property string) bool
}

// Epoch is the virtual time every run starts near (drawStart shifts it by
// under a millisecond and reads it in a drawn zone): fixed, so traces are
// stable, and far from the zero time so that NotBefore is never zero.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Host is the simulated host (a Durable Object analogue): it owns the
// workspace's durable local store, the scheduler's store and one alarm, and
// rebuilds the Workspace from them at every host start.
type Host struct {
	cfg   Config
	t0    time.Time              // the clock's start: Epoch, shifted and located (drawStart)
	opts  workspace.RetryOptions // the backoff, SPEC 2.2 defaults filled in
	clock *Clock
	// latency moves the clock at stream reads in runs with a wall-time
	// budget (host_latency.go); nil otherwise.
	latency *readLatency
	rt      *Runtime
	trace   *Trace
	ctx     context.Context

	backends backendState // the containers and what befell their logs
	records  recordMarks  // how far the fault wrappers' records were read
	stores   hostStores   // this incarnation's stores, alarm owner and workspace
	secrets  plantedSecrets
	alarm    alarmState  // the one alarm and the timer actors that fire it
	streams  streamState // the per-operation random streams (host_streams.go)
	ops      opState     // the operations of the current step
	cut      cutState    // where a cut or cancelling step stops
	returns  returnState // calls returned and actors held after them (returns.go)
	observed localObservations
	// ledgers are what the driver keeps of the world to drive it
	// (package sim/ledger); the judge keeps its own.
	ledgers ledgers

	stats    Stats
	violated *Violation
	// hist is the run's history: the events the judge reads
	// (host_history.go).
	hist     history.History
	progress progressWatch
}

// backendState is the simulated backends: their ids and containers, and
// what the host must know of their lost logs.
type backendState struct {
	names      []string // backend ids, b0..bN-1
	containers []*faults.Container
	wiped      []bool // the runtime lost its log at some point
	// reconnected: the last log loss broke the connections, so the host
	// must reconnect and reconcile. After a truncation under a surviving
	// connection it need not (SPEC 8.5), and the pullOnce scalar-only
	// push reset (SPEC 6.3 QUIRK) can leave host writes un-pushed.
	reconnected []bool
}

// recordMarks is how far the driver has read the fault wrappers' records
// (into the trace and the history), and the buffers it reads them into.
type recordMarks struct {
	marks []int // per container: record position already traced
	// drained[i] holds container i's calls from drainedFrom[i] up to
	// marks[i], as the last drainRecords read them (buffers reused).
	drained     [][]faults.Call
	drainedFrom []int
	lineBuf     []byte        // reused rendering buffer for record lines
	actorCalls  []faults.Call // reused: the calls of the op being judged
	schedMark   int           // the intent store's calls already drained
	localMark   int           // local-store faults already drained
}

// hostStores is the host's durable state and what this incarnation built
// from it: the stores are reopened, and the workspace rebuilt, at every
// host start.
type hostStores struct {
	store   workspace.Store    // this incarnation's local store
	local   *faults.LocalStore // fault wrapper over store
	open    StoreFactory
	factory SchedulerFactory
	inner   scheduler.Scheduler // this incarnation's store handle
	sched   *faults.Scheduler   // fault wrapper over inner, with its record
	owner   AlarmOwner          // non-nil when the store sets the alarm itself
	ws      *workspace.Workspace
	starts  int
	// dropped holds the store handles host crashes left behind unclosed
	// (a killed process never closes them); Close releases them at the end.
	dropped []interface{ Close() error }
	// localProbed: the store probe wrote on probeBackend at the first
	// start, so host restarts hold that backend to durability too.
	localProbed bool
}

// plantedSecrets are the credential planters (host_secrets.go).
type plantedSecrets struct {
	all   []*faults.Secrets // every planter, containers first
	store *faults.Secrets   // the intent store's, across host starts
	local *faults.Secrets   // the local store's faults', across starts
}

// alarmState is the host's one alarm: as last traced (the Waker's Next,
// or the owning store's), and the timer actors that fire it.
type alarmState struct {
	at    time.Time
	set   bool
	waker *scheduler.Waker // this incarnation's alarm (nil with an owner)
	// ownerTimer is the host's timer for an owning store's alarm.
	ownerTimer *clock.Timer
	err        error // a store error the alarm met listing (takeAlarmErr)
	// timerListings holds, per timer actor in flight, whether its Waker
	// listed the store and whether the last listing failed (alarm_rearm.go).
	timerListings map[*actor]*timerListing
	spawned       int // timer actors spawned (spawnTimer), for Advance
}

// streamState is where the per-operation random streams stand
// (host_streams.go).
type streamState struct {
	strategy Strategy
	opKey    string
	opRuns   int
	runKey   string     // the Run in progress, or the last one
	drawSrc  rand.PCG   // actorDraw's generator, reseeded at each draw
	draw     *rand.Rand // over drawSrc
	runSrc   rand.PCG   // the Run's interleaving stream (prepareRun)
	runRand  *rand.Rand // over runSrc
	schedule []string   // written for the operation's first Run
}

// opState is the operations of the current step: their cancel functions,
// those that reached a blocking point of their own (started), those the
// simulator cancelled (see host_cancel.go), and those that finished.
type opState struct {
	seq       int // operations spawned so far
	inStep    []string
	cancels   map[string]context.CancelFunc
	started   map[string]bool
	cancelled map[string]bool
	// hit holds every operation a cancel landed on, wherever it landed.
	hit       map[string]bool
	lastPoint map[string]string // an operation's last blocking point
	done      []finished        // ops finished during the current step, in order
}

// cutState is how the step being cut, or cancelling, stops.
type cutState struct {
	at          string                     // where the step being cut stopped (noteCut)
	local       bool                       // the step's cut counts local-store calls only
	cancel      bool                       // the step's "cut" cancels an operation instead
	cancelDone  bool                       // the cancelling step has cancelled its operation
	cancelDraws interface{ IntN(int) int } // the cancelling step's draws (the op's own stream)
	cancelPlan  CancelPoint                // a written cancel for the next StepCancel (SetCancel)
	lastCancel  CancelPoint                // where the last StepCancel's cancel landed
}

// returnState counts calls returned, names each call's post-return
// point, and counts the actors held at one now (returns.go).
type returnState struct {
	count     int
	points    map[string]returnPoint
	heldAfter int
}

// localObservations is what the driver saw of the local store: the
// contents it handed out, to be held to what they were
// (host_localwatch.go), the order writes reached it (writeorder.go), and
// what the last check took (listings, cursors, pushRev reads).
type localObservations struct {
	handed       handedOutWatch                   // contents the store handed out (host_localwatch.go)
	writes       writeOrder                       // the order writes reached the store (writeorder.go)
	listed       localListings                    // the local store's listings this check took
	viewStarts   int                              // the host start viewLocal last saw
	pushRevReads map[string][]history.PushRevRead // per actor: the pushRev its pulls read
	lastFetch    []scheduler.Cursor               // per backend: fetch cursor at the last check
	lastPushed   []scheduler.Cursor               // per backend: the remote's applied-push cursor then
}

// progressWatch is what the watchdog reads from another goroutine: events
// counts trace events (Progress); abandoned freezes a goroutine that comes
// back after the watchdog gave up (see watchdog.go).
type progressWatch struct {
	events    atomic.Uint64
	abandoned atomic.Bool
}

// Stats counts what a run reached; the sweep reports them per property.
type Stats struct {
	Steps    int
	Events   int
	Retry    map[string]int // RetryPendingSync status -> count
	ExecSync map[string]int // exec outcome -> count
	Faults   map[string]int // injected fault kind -> count
	// Secrets counts planted credentials per form ("planted <form>") and
	// result errors that were redacted or cut (the secrecy property).
	Secrets     map[string]int
	HostStarts  int
	SimDuration time.Duration
}

// NewHost builds the host, its containers and the first workspace.
func NewHost(cfg Config) (*Host, error) {
	if cfg.Backends < 1 {
		return nil, fmt.Errorf("sim: need at least one backend, got %d", cfg.Backends)
	}
	if cfg.BackendIDs != nil {
		if err := ValidBackendIDs(cfg.BackendIDs, cfg.Backends); err != nil {
			return nil, fmt.Errorf("sim: %w", err)
		}
	}
	opts, err := resolveRetry(cfg.Retry)
	if err != nil {
		return nil, err
	}
	h := &Host{
		cfg:     cfg,
		opts:    opts,
		t0:      drawStart(cfg.Seed),
		rt:      NewRuntime(Stream(cfg.Seed, LabelInterleave)),
		stores:  hostStores{open: cfg.LocalStore, factory: cfg.Scheduler},
		records: recordMarks{actorCalls: getCallBuf()},
		ctx:     context.Background(),
		stats: Stats{
			Retry: map[string]int{}, ExecSync: map[string]int{}, Faults: map[string]int{},
			Secrets: map[string]int{},
		},
	}
	h.clock, h.trace = NewClock(h.t0), NewTrace(h.t0)
	h.clock.SetSpawn(h.spawnTimer)
	if cfg.Budget != nil {
		h.latency = h.newReadLatency(cfg.Budget.MaxWallTime)
	}
	h.streams.strategy = cfg.Strategy
	if h.streams.strategy == nil {
		h.streams.strategy = &Uniform{}
	}
	h.rt.SetStrategy(h.streams.strategy)
	h.rt.SetPrepare(h.prepareRun)
	h.rt.SetGateWatch(h.noteGateWait)
	h.rt.OnLivelock(h.failLivelock)
	if h.stores.open == nil {
		h.stores.open = MemoryStore()
	}
	if h.stores.factory == nil || cfg.NoScheduler {
		// Without a scheduler the host still keeps an (always empty) store
		// behind its fault wrapper, so that records and listings work; the
		// workspace is never given it.
		h.stores.factory = MemoryScheduler()
	}
	if cfg.TraceKeep > 0 {
		h.trace.Keep(cfg.TraceKeep)
	}
	h.trace.Header("seed " + strconv.FormatUint(cfg.Seed, 10))
	h.trace.Header("profile " + cfg.Profile.String())
	header := fmt.Sprintf("config backends=%d initial=%s max=%s attempts=%d", cfg.Backends, opts.InitialDelay, opts.MaxDelay, opts.MaxAttempts)
	if cfg.NoScheduler {
		header += " scheduler=none"
	}
	if cfg.Budget != nil && cfg.Budget.MaxWallTime > 0 {
		header += " max-wall=" + cfg.Budget.MaxWallTime.String()
	}
	if cfg.NoRuntimeID != "" {
		header += " no-runtime-id=" + cfg.NoRuntimeID
	}
	if cfg.SyncNone != "" {
		header += " sync-none=" + cfg.SyncNone
	}
	h.trace.Header(header)
	h.trace.Header("strategy " + h.streams.strategy.String())
	profile := cfg.Profile
	for i := range cfg.Backends {
		label, name := BackendLabel(i), BackendID(cfg.BackendIDs, i)
		h.backends.names = append(h.backends.names, name)
		c := faults.NewContainer(name, h.containerHooks(i, name), h.actorRand(FaultsLabel(label)), &profile)
		c.SetLostCode(h.actorRand(FaultsLabel(label) + "/lost-code"))
		c.SetClock(h.clock.Now) // the raw clock: stamping a call is no read of the SUT's
		if label == cfg.NoRuntimeID {
			c.SetAnonymous()
		}
		if label == cfg.SyncNone {
			c.SetSyncNone()
		}
		h.backends.containers = append(h.backends.containers, c)
		h.records.marks = append(h.records.marks, 0)
		h.records.drained = append(h.records.drained, nil)
		h.records.drainedFrom = append(h.records.drainedFrom, 0)
		h.backends.wiped = append(h.backends.wiped, false)
		h.backends.reconnected = append(h.backends.reconnected, false)
	}
	h.ledgers = ledgers{}
	h.beginHistory()
	h.plantSecrets()
	if err := h.firstStart(); err != nil {
		return nil, err
	}
	return h, nil
}

// resolveRetry applies the SPEC 2.1 defaults the way the workspace does, so
// the model reasons with the same numbers.
func resolveRetry(r workspace.RetryOptions) (workspace.RetryOptions, error) {
	o := workspace.RetryOptions{InitialDelay: r.InitialDelay, MaxDelay: r.MaxDelay, MaxAttempts: r.MaxAttempts}
	if o.InitialDelay == 0 {
		o.InitialDelay = time.Second
	}
	if o.MaxDelay == 0 {
		o.MaxDelay = time.Minute
	}
	if o.MaxAttempts == 0 {
		o.MaxAttempts = 5
	}
	if o.InitialDelay < 0 || o.MaxDelay < 0 || o.MaxAttempts < 0 {
		return o, fmt.Errorf("sim: negative retry option %+v", r)
	}
	return o, nil
}

// hooks connects the containers and the store wrapper to the actor runtime.
func (h *Host) hooks() faults.Hooks { return runtimeHooks{h.rt, h} }

type runtimeHooks struct {
	rt *Runtime
	h  *Host
}

func (r runtimeHooks) Block(point string) {
	if point == storeListPoint && r.h.alone() {
		return // a new point, no decision when alone (returns.go)
	}
	r.h.beforeBlock(point)
	r.rt.Block(point)
}

// containerHooks are backend b's container's hooks: the runtime's, and
// push-target told of every push as it reaches its blocking point.
type containerHooks struct {
	runtimeHooks
	b    int
	push string // the container's push blocking point
}

func (h *Host) containerHooks(b int, name string) faults.Hooks {
	return containerHooks{runtimeHooks{h.rt, h}, b, name + "." + string(faults.OpPush)}
}

func (r containerHooks) Block(point string) {
	if point == r.push {
		r.h.notePushEntry(r.b)
	}
	r.runtimeHooks.Block(point)
}

func (r runtimeHooks) Actor() string {
	if a := r.rt.Actor(); a != "" {
		return a
	}
	return "-"
}

// start opens the scheduler store and builds a workspace over the durable
// state: what a host does when its process starts.
func (h *Host) start() error {
	store, err := h.stores.open(h.cfg.Dir)
	if err != nil {
		return fmt.Errorf("sim: host start %d: %w", h.stores.starts+1, hostStoreError("local store", "open", "", err))
	}
	h.stores.store = store
	probing := h.stores.starts == 0 && !h.cfg.NoProbes && Stream(h.cfg.Seed, "probes").IntN(probeOneIn) == 0
	if probing {
		h.probeLocalStore() // host_storeprobe.go
		h.probeAPI()        // host_apiprobe.go
		h.probeBudget()     // host_budgetprobe.go
	}
	inner, err := h.stores.factory(h.cfg.Dir)
	if err != nil {
		return fmt.Errorf("sim: host start %d: %w", h.stores.starts+1, hostStoreError("intent store", "open", "", err))
	}
	h.stores.inner = inner
	if probing && h.violated == nil {
		h.probeIntentStore(inner) // host_intentprobe.go
	}
	profile := h.cfg.Profile
	h.records.schedMark = 0
	if h.cfg.Alarm == AlarmSingleOverwrite {
		if _, owns := inner.(AlarmOwner); !owns {
			inner = newSingleAlarm(inner)
			h.stores.inner = inner
		}
	}
	h.stores.owner, _ = inner.(AlarmOwner)
	h.stores.sched = faults.NewScheduler(inner, h.hooks(), h.actorRand("faults/store/"+strconv.Itoa(h.stores.starts)), &profile)
	h.stores.sched.SetClock(h.clock.Now)
	h.stores.sched.PlantSecrets(h.secrets.store)
	h.records.localMark = 0
	h.forgetHandedOut()
	h.stores.local = faults.NewLocalStore(h.stores.store, h.localHooks(), Stream(h.cfg.Seed, "faults/local/"+strconv.Itoa(h.stores.starts)), &profile, h.recordPos)
	h.stores.local.PlantSecrets(h.secrets.local)
	var sch scheduler.Scheduler = h.stores.sched
	if h.cfg.NoScheduler {
		sch = nil
	}
	backends := make([]workspace.BackendConfig, len(h.backends.containers))
	for i, c := range h.backends.containers {
		backends[i] = workspace.BackendConfig{ID: h.backends.names[i], Backend: c}
	}
	ws, err := planttest.New(workspace.Options{
		Backends:  backends,
		Clock:     sutClock{h.clock, h},
		Scheduler: sch,
		Retry:     h.cfg.Retry,
		Store:     localStoreCheck{inner: h.stores.local, h: h},
		Parker:    h.rt,
		PushBatch: h.cfg.PushBatch,
	}, h.cfg.Mutant)
	if err != nil {
		return &buildError{start: h.stores.starts + 1, err: err}
	}
	h.stores.ws = ws
	h.appendEvent(history.Event{Kind: history.HostStart, Start: h.stores.starts + 1, Marks: h.containerMarks(), OwnsAlarm: h.stores.owner != nil})
	h.stores.starts++
	h.stats.HostStarts = h.stores.starts
	h.event("-", "host-start", "n="+strconv.Itoa(h.stores.starts))
	if err := h.startAlarm(); err != nil {
		return &alarmStartError{err: err}
	}
	return nil
}

// alarmStartError is the alarm failing to arm as the host starts: the
// Waker's own error or the store's listing, both the system under test's.
type alarmStartError struct{ err error }

func (e *alarmStartError) Error() string {
	return "host start: arming the alarm: " + e.err.Error()
}

func (e *alarmStartError) Unwrap() error { return e.err }

// event appends one trace line at the current virtual time.
func (h *Host) event(actor, event string, details ...string) {
	h.freezeIfAbandoned()
	h.stats.Events++
	h.trace.Add(h.clock.Now(), actor, event, details...)
	h.progress.events.Add(1)
}

// eventBytes is event with one detail given as bytes (see
// Trace.addDetailBytes).
func (h *Host) eventBytes(actor, event string, detail []byte) {
	h.freezeIfAbandoned()
	h.stats.Events++
	h.trace.addDetailBytes(h.clock.Now(), actor, event, detail)
	h.progress.events.Add(1)
}

// Trace returns the run's trace.
func (h *Host) Trace() *Trace { return h.trace }

// Stats returns what the run has counted so far.
func (h *Host) Stats() Stats {
	s := h.stats
	s.SimDuration = h.clock.Now().Sub(h.t0)
	s.Secrets = make(map[string]int, len(h.stats.Secrets)+len(faults.SecretForms))
	for k, v := range h.stats.Secrets {
		s.Secrets[k] = v
	}
	h.plantedCounts(s.Secrets)
	return s
}

// Backends returns the backend ids, in order.
func (h *Host) Backends() []string { return append([]string(nil), h.backends.names...) }

// Violation returns the first property the run broke, or nil.
func (h *Host) Violation() *Violation { return h.violated }

// Now returns the virtual time.
func (h *Host) Now() time.Time { return h.clock.Now() }

// Close releases the host's resources; the run is over. Handles dropped by
// host crashes are released too, after the live ones.
func (h *Host) Close() error {
	h.rt.Kill()
	for _, c := range h.backends.containers {
		c.ReleaseRecord() // nothing reads a record once the run is over
	}
	h.records.drained = nil
	putCallBuf(h.records.actorCalls)
	h.records.actorCalls = nil
	var errs []error
	for _, s := range []any{h.stores.store, h.stores.inner} {
		if c, ok := s.(interface{ Close() error }); ok {
			errs = append(errs, c.Close())
		}
	}
	for _, c := range h.stores.dropped {
		errs = append(errs, c.Close())
	}
	h.stores.dropped = nil
	h.hist.Release()
	h.trace.seal()
	return errors.Join(errs...)
}
