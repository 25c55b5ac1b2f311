package scenarios

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/sim/oracle"
	"github.com/syncsim/syncsim/workspace"
)

// Config is what shapes a scenario besides its ops.
type Config struct {
	// Backends is the number of container backends (0: drawn per seed by
	// FromSeed, backendcount.go; a scenario always has its count set).
	Backends int
	// Steps is the number of steps Generate draws, as Steps counts them:
	// every op, a group's members each (the group itself is not one).
	Steps int
	// Scheduler names the intent store: "memory" or "sqlite", or "none"
	// for a workspace without a scheduler (SPEC 3.3 step 1; scenario files
	// only, the generator never draws it).
	Scheduler string
	// LocalStore names the workspace's local store (files and cursors):
	// "memory" (or "") or "sqlite". A sqlite store is closed and reopened at
	// every host restart and must hold exactly what it held before.
	LocalStore string
	// Bug names a planted bug from Bugs ("" for the correct code).
	Bug string
	// Retry is the workspace's backoff.
	Retry workspace.RetryOptions
	// MaxEntries is the retry batch budget (0: the default budget).
	MaxEntries int
	// MaxBytes is the retry batch's byte budget (0: the default, 4 MiB).
	// Entries are a few dozen bytes, so the small values FromSeed draws
	// stop batches by bytes (docs/SPEC.md 6.4, the Go byte-budget rule).
	MaxBytes int64
	// MaxWallTime is the retry batch's wall-time budget (0: none, the
	// default). Virtual time moves inside a group only when a tick runs,
	// so FromSeed draws values about one tick long: a batch meets its
	// budget where the schedule puts a tick between its start and a read.
	MaxWallTime time.Duration
	// PushEntries and PushBytes are the workspace's push batch budget
	// (workspace.Options.PushBatch; 0: SPEC 6.5's 256 entries and 4 MiB).
	// FromSeed draws small ones for some seeds, so that pushes of a few
	// host writes span several batches.
	PushEntries int
	PushBytes   int64
	// SQLiteShare makes FromSeed swap each in-memory store (intent store,
	// local store) for its SQLite implementation in about 1 seed of
	// SQLiteShare, each drawn on its own stream; 0 never does. With it,
	// about 1 seed in noSchedulerOneIn runs with no intent store at all
	// (Scheduler "none"). FromSeed resolves it: a drawn Scenario names its
	// stores and carries 0 here.
	SQLiteShare int
	// NoRuntimeID names a backend ("b1") whose runtime never reports an id,
	// so that every intent on it is unfenced (SPEC 1.2, 7); "" for none.
	// FromSeed names one in about 1 seed of noRuntimeIDOneIn.
	NoRuntimeID string
	// SyncNone names a backend ("b1") whose handles do not sync (SPEC 4:
	// handle.sync == "none"): no push, pull, reconcile or target capture
	// ever goes through it. FromSeed names one in about 1 seed of
	// syncNoneOneIn (never b0 alone: a one-backend seed keeps its sync).
	SyncNone string
	// BackendIDs are the ids the workspace knows the backends by, joined
	// with "," ("": "b0", "b1", ...; a string keeps Config comparable);
	// FromSeed draws others for some seeds (backendids.go).
	BackendIDs string
	// Strategy is how the seed's scheduling strategy is chosen: "uniform",
	// "pct" or "mix" ("" is mix: sim.DrawStrategy). A group with a written
	// schedule follows it whatever the strategy.
	Strategy string
	// Properties selects the properties a run judges: names from
	// oracle.Registry joined with "," ("": every one). It is how the run
	// is judged, not what it does: scenario files do not carry it, and a
	// run's trace up to its first violation is the same whatever it says.
	Properties string
}

// DefaultConfig is the default scenario shape: backends drawn per seed
// (two in most seeds, one to sixteen in the rest), 30 ops, the
// memory stores, with 1 seed in 16 on each SQLite store instead: so every
// default sweep also runs the durable stores (about 75 SQLite runs in
// go test's 600-seed sweep), at a cost the sweep can bear: on a
// memory-backed filesystem (scratch.go) a SQLite run costs a few memory
// runs; on a disk it waits on fsync, about ten times longer.
var DefaultConfig = Config{Steps: 30, Scheduler: "memory", SQLiteShare: 16}

// MemoryConfig is DefaultConfig on the memory stores only: the shape
// `syncsim bench` measures the harness on, beside the default one.
var MemoryConfig = func() Config { c := DefaultConfig; c.SQLiteShare = 0; return c }()

// Scenario is everything one run needs: replaying it gives the same trace.
type Scenario struct {
	Seed    uint64
	Config  Config
	Profile faults.Profile
	Ops     []Op
}

// retryChoices are the backoff settings a seed draws from: short maxima and
// few attempts make exhaustion reachable within a 30-op scenario.
var retryChoices = []workspace.RetryOptions{
	// The zero value: the workspace's own defaults (SPEC 2.1: 1 s, 60 s,
	// 5), which the model knows as literals, not from the workspace.
	{},
	{InitialDelay: time.Second, MaxDelay: 4 * time.Second, MaxAttempts: 3},
	{InitialDelay: 100 * time.Millisecond, MaxDelay: time.Second, MaxAttempts: 2},
	{InitialDelay: 500 * time.Millisecond, MaxDelay: 2 * time.Second, MaxAttempts: 4},
	// Each default alone, where it shows: under the defaults the delays
	// stop at 16 s, so the 60 s maximum is never reached; here the third
	// attempt waits 60 s instead of 80 (a default maximum of 59,999 ms
	// passed every seed while only the zero value used it).
	{InitialDelay: 20 * time.Second, MaxAttempts: 4},
	// The default initial delay and attempts under a drawn maximum: 1 s,
	// 2 s, then 3 s.
	{MaxDelay: 3 * time.Second},
}

var maxEntriesChoices = []int{0, 0, 1, 2}

// noRuntimeIDOneIn: one seed in this many has a backend without runtime
// identity. Only a handle without a runtime id makes an unfenced intent,
// and otherwise only a rare lost identity gives one: so the retry's
// branches for an intent without runtimeId (SPEC 4: EEXEC_LOST is then an
// ordinary failure; SPEC 7: never lost) were seldom met.
const noRuntimeIDOneIn = 4

// syncNoneOneIn: about one seed in this many (of two backends or more) has
// a backend that does not sync, never b0 (SPEC 4's sync "none": module
// backends and sync-less handles). Its operations still run commands and
// hold intents; every sync step through it completes empty.
const syncNoneOneIn = 8

// maxBytesChoices: mostly the default, sometimes a budget of about one or
// two entries, sometimes one byte (the first entry always moves, so every
// call still progresses). A command's file is "bK-rtN exec S file I\n", 21
// bytes for a one-digit S and 22 for two: 42 and 44 are two entries exactly,
// so a budget compared with >= instead of > shows.
var maxBytesChoices = []int64{0, 0, 0, 0, 0, 1, 30, 42, 44, 50}

// maxWallChoices: mostly none; sometimes a wall-time budget of one
// nanosecond (spent by any tick), or exactly one of the tick lengths
// (advanceSteps), so that a budget compared with > instead of >= shows.
var maxWallChoices = []time.Duration{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, time.Nanosecond, 100 * time.Millisecond, time.Second, 30 * time.Second}

// pushEntriesChoices and pushBytesChoices: mostly SPEC 6.5's PUSH_BATCH,
// sometimes a batch of one to three entries. A host write's content is
// "host /host/N", 13 to 15 bytes: 20 bytes is one entry per batch, 30 two
// (the first always goes, so 1 byte still progresses).
var (
	pushEntriesChoices = []int{0, 0, 0, 1, 2, 3}
	pushBytesChoices   = []int64{0, 0, 0, 0, 1, 20, 30}
)

// pushBudget is the workspace's push batch budget (zero fields: the
// default).
func (c Config) pushBudget() workspace.PushBudget {
	return workspace.PushBudget{MaxEntries: c.PushEntries, MaxBytes: c.PushBytes}
}

// specDefaultBudget is SPEC 2.1's default retry batch budget, written here
// rather than read from workspace.DefaultBudget: a budget with one field
// drawn keeps the SPEC's other field, so the harness never takes the
// SUT's default for its own expectation.
var specDefaultBudget = workspace.Budget{MaxEntries: 64, MaxBytes: 4 << 20}

// budget is the batch budget a scenario's retries run with (nil: the
// workspace default).
func (c Config) budget() *workspace.Budget {
	if c.MaxEntries == 0 && c.MaxBytes == 0 && c.MaxWallTime == 0 {
		return nil
	}
	b := specDefaultBudget
	if c.MaxEntries > 0 {
		b.MaxEntries = c.MaxEntries
	}
	if c.MaxBytes > 0 {
		b.MaxBytes = c.MaxBytes
	}
	b.MaxWallTime = c.MaxWallTime
	return &b
}

// FromSeed draws a scenario: the swarm profile first (its own stream),
// then the per-run op weights, backoff and budget, then the ops (the
// workload stream). Fields already set in c (Retry, MaxEntries) are kept.
func FromSeed(seed uint64, c Config) Scenario {
	profile := faults.DrawProfile(sim.Stream(seed, sim.LabelProfile))
	w := sim.Stream(seed, sim.LabelWorkload)
	weights := Swarm(w)
	applyProfile(&weights, profile)
	if c.Backends == 0 {
		// Its own stream: the profile, weights and budgets are the same
		// whatever the count (the ops are not: they pick backends).
		c.Backends = drawBackendCount(sim.Stream(seed, "backends"))
	}
	retry := retryChoices[w.IntN(len(retryChoices))]
	if c.Retry == (workspace.RetryOptions{}) {
		c.Retry = retry
	}
	me := maxEntriesChoices[w.IntN(len(maxEntriesChoices))]
	if c.MaxEntries == 0 {
		c.MaxEntries = me
	}
	if c.MaxBytes == 0 {
		// Its own stream: the workload is the same whatever the budget.
		c.MaxBytes = maxBytesChoices[sim.Stream(seed, "budget/bytes").IntN(len(maxBytesChoices))]
	}
	if c.MaxWallTime == 0 {
		c.MaxWallTime = maxWallChoices[sim.Stream(seed, "budget/wall").IntN(len(maxWallChoices))]
	}
	if c.PushEntries == 0 {
		c.PushEntries = pushEntriesChoices[sim.Stream(seed, "budget/push-entries").IntN(len(pushEntriesChoices))]
	}
	if c.PushBytes == 0 {
		c.PushBytes = pushBytesChoices[sim.Stream(seed, "budget/push-bytes").IntN(len(pushBytesChoices))]
	}
	c = drawStores(seed, c)
	if c.BackendIDs == "" {
		c.BackendIDs = formatBackendIDs(drawBackendIDs(sim.Stream(seed, "backend-ids"), c.Backends))
	}
	if c.NoRuntimeID == "" {
		// Its own stream, like the budgets: the workload is the same.
		if r := sim.Stream(seed, "no-runtime-id"); r.IntN(noRuntimeIDOneIn) == 0 {
			c.NoRuntimeID = "b" + strconv.Itoa(r.IntN(c.Backends))
		}
	}
	if c.SyncNone == "" && c.Backends > 1 {
		// Its own stream, like the budgets: the workload is the same.
		if r := sim.Stream(seed, "sync-none"); r.IntN(syncNoneOneIn) == 0 {
			c.SyncNone = "b" + strconv.Itoa(1+r.IntN(c.Backends-1))
		}
	}
	ops := Generate(w, GenConfig{Steps: c.Steps, Backends: c.Backends, MaxWrites: 3, Weights: weights, MaxAttempts: c.Retry.MaxAttempts})
	addCancels(sim.Stream(seed, "cancels"), ops)
	addDeletes(sim.Stream(seed, "deletes"), ops)
	addPlantTargets(sim.Stream(seed, "plant-targets"), ops)
	addPulls(sim.Stream(seed, "pulls"), ops)
	addWriteRaces(sim.Stream(seed, "write-races"), ops)
	addSaves(sim.Stream(seed, "saves"), ops)
	if c.PushEntries == 0 && c.PushBytes == 0 {
		// Only the default push batch needs 257 changes to fill; a drawn
		// one fills with a few ordinary writes.
		addHostBursts(sim.Stream(seed, "host-bursts"), ops)
		addBigHostWrites(sim.Stream(seed, "big-host-writes"), ops)
	}
	if c.MaxEntries == 0 && c.MaxBytes == 0 {
		// Only the default entry and byte budget stops a batch at 64
		// entries; a drawn one stops it within a few ordinary writes
		// already (a wall-time budget stops none without a tick).
		addBursts(sim.Stream(seed, "bursts"), ops)
		addBigWrites(sim.Stream(seed, "big-writes"), ops)
		// A retry under a budget of a few entries or bytes would need a
		// firing per few entries of a pull burst, past the tail's bound.
		addPullBursts(sim.Stream(seed, "pull-bursts"), ops)
	}
	return Scenario{Seed: seed, Config: c, Profile: profile, Ops: ops}
}

// applyProfile switches off the fault ops the profile has off, so that a
// swarm profile decides event faults as well as per-call ones.
func applyProfile(w *Weights, p faults.Profile) {
	for op, k := range profileKinds {
		if !p.On(k) {
			w[op] = 0
		}
	}
}

// profileKinds are the event-fault op kinds and the fault kind of the
// profile that switches each (Swarm leaves them to it).
var profileKinds = map[OpKind]faults.Kind{
	OpCrash: faults.Crash, OpRestart: faults.Restart, OpLoseIdentity: faults.LostIdentity,
	OpTruncate: faults.TruncatedLog, OpHostRestart: faults.HostRestart,
}

// Validate reports the first thing wrong with a scenario's config or ops.
func (s Scenario) Validate() error {
	if s.Config.Backends < 1 {
		return fmt.Errorf("backends must be at least 1, got %d", s.Config.Backends)
	}
	if !validScheduler(s.Config.Scheduler) {
		return fmt.Errorf("unknown scheduler %q (want memory, sqlite or none)", s.Config.Scheduler)
	}
	if s.Config.LocalStore != "" && s.Config.LocalStore != "memory" && s.Config.LocalStore != "sqlite" {
		return fmt.Errorf("unknown local store %q (want memory or sqlite)", s.Config.LocalStore)
	}
	if _, err := sim.DrawStrategy(s.Config.Strategy, s.Seed); err != nil {
		return err
	}
	if ids := s.Config.backendIDs(); ids != nil {
		if err := sim.ValidBackendIDs(ids, s.Config.Backends); err != nil {
			return fmt.Errorf("ids: %w", err)
		}
	}
	if b := s.Config.NoRuntimeID; b != "" {
		if _, err := parseBackend(b, s.Config.Backends); err != nil {
			return fmt.Errorf("no-runtime-id: %w", err)
		}
	}
	if b := s.Config.SyncNone; b != "" {
		if _, err := parseBackend(b, s.Config.Backends); err != nil {
			return fmt.Errorf("sync-none: %w", err)
		}
	}
	if s.Config.Bug != "" {
		if _, ok := BugByName(s.Config.Bug); !ok {
			return fmt.Errorf("unknown bug %q (see syncsim bugs)", s.Config.Bug)
		}
	}
	if r := s.Config.Retry; r.InitialDelay > maxRetryDelay || r.MaxDelay > maxRetryDelay {
		return fmt.Errorf("retry delays initial=%v max=%v: each must be at most %v (30 days), so that retries stay inside the virtual clock's range",
			r.InitialDelay, r.MaxDelay, maxRetryDelay)
	}
	if err := validateOps(s.Ops, s.Config.Backends, false); err != nil {
		return err
	}
	return validateSpan(s.Ops)
}

// maxRetryDelay bounds a scenario's backoff delays (see maxScenarioAdvance).
const maxRetryDelay = 30 * 24 * time.Hour

// maxScenarioAdvance bounds the time a scenario's advances add up to. The
// virtual clock spans the years int64 nanoseconds can hold (to 2262), and
// retries and the liveness tail move time further, so a file asking for
// centuries is an input error, not a panic deep in the clock.
const maxScenarioAdvance = 100 * 365 * 24 * time.Hour

// validateSpan checks that the advances, in groups too, stay within
// maxScenarioAdvance (summed without overflow).
func validateSpan(ops []Op) error {
	var total time.Duration
	var walk func(ops []Op) error
	walk = func(ops []Op) error {
		for _, o := range ops {
			if o.Kind == OpGroup {
				if err := walk(o.Ops); err != nil {
					return err
				}
				continue
			}
			if o.Kind != OpAdvance {
				continue
			}
			if o.Dur > maxScenarioAdvance-total {
				return fmt.Errorf("advances add up to more than %v (100 years), past what the virtual clock can reach", maxScenarioAdvance)
			}
			total += o.Dur
		}
		return nil
	}
	return walk(ops)
}

// schedulerNone is the Config.Scheduler of a workspace without one.
const schedulerNone = "none"

func validScheduler(name string) bool {
	return name == "memory" || name == "sqlite" || name == schedulerNone
}

func validateOps(ops []Op, backends int, inGroup bool) error {
	for i, o := range ops {
		if o.Backend < 0 || o.Backend >= backends {
			return fmt.Errorf("op %d (%s): backend b%d out of range (scenario has %d)", i+1, o.Kind, o.Backend, backends)
		}
		switch {
		case o.Kind == OpGroup:
			if inGroup {
				return fmt.Errorf("op %d: groups do not nest", i+1)
			}
			if err := validateOps(o.Ops, backends, true); err != nil {
				return fmt.Errorf("group at op %d: %w", i+1, err)
			}
		case inGroup && !o.Kind.InGroup():
			return fmt.Errorf("op %d: %s cannot run inside a group", i+1, o.Kind)
		case !inGroup && o.Kind == OpCancel:
			return fmt.Errorf("op %d: cancel runs only inside a group (it cancels one of the group's operations)", i+1)
		case inGroup && o.Clean:
			return fmt.Errorf("op %d: a clean host-restart cannot run inside a group (a restart there crashes the host mid-operation)", i+1)
		}
		if o.Kind == OpExec && o.Writes < 0 {
			return fmt.Errorf("op %d: negative writes", i+1)
		}
		if o.Kind == OpExec && o.Staged && o.Size > 0 {
			return fmt.Errorf("op %d: a staged exec writes its files' own content (drop size= or staged)", i+1)
		}
		if o.Kind == OpWrite && o.Delete && o.Files > 1 {
			return fmt.Errorf("op %d: a delete removes one file (drop files= or delete)", i+1)
		}
		if o.Kind == OpWrite && o.Delete && o.Size > 0 {
			return fmt.Errorf("op %d: a delete writes no content (drop size= or delete)", i+1)
		}
		if o.Kind == OpAdvance && o.Dur <= 0 {
			return fmt.Errorf("op %d: advance needs a positive duration", i+1)
		}
		if o.Kind == OpInject {
			if err := o.Armed().Check(); err != nil {
				return fmt.Errorf("op %d (inject): %w", i+1, err)
			}
		}
		if err := validateSchedule(o); err != nil {
			return fmt.Errorf("op %d (%s): %w", i+1, o.Kind, err)
		}
	}
	return nil
}

// noSchedulerOneIn: in the default sweep, one seed in this many builds its
// workspace without a retry scheduler (SPEC 2.1: the option is optional).
// Only such a workspace reaches SPEC 3.1's assertDeferredReady (a deferred
// exec refused before any call), a wait exec whose failed pull has nowhere
// to schedule, and a retry refused for want of a store: a workspace that
// refused a wait exec there too passed every default seed.
const noSchedulerOneIn = 32

// drawStores resolves c.SQLiteShare (see Config). The draws come from
// streams of their own, so the rest of the scenario is the same whichever
// stores a seed runs on.
func drawStores(seed uint64, c Config) Config {
	if c.SQLiteShare > 0 {
		switch {
		case c.Scheduler == "memory" && sim.Stream(seed, "stores/no-scheduler").IntN(noSchedulerOneIn) == 0:
			c.Scheduler = "none"
		case c.Scheduler == "memory" && sim.Stream(seed, "stores/scheduler").IntN(c.SQLiteShare) == 0:
			c.Scheduler = "sqlite"
		}
		if (c.LocalStore == "" || c.LocalStore == "memory") && sim.Stream(seed, "stores/local").IntN(c.SQLiteShare) == 0 {
			c.LocalStore = "sqlite"
		}
	}
	c.SQLiteShare = 0
	return c
}

// cutStream draws where a host restart inside the group keyed key cuts it:
// a stream per group, like every other per-op draw.
func cutStream(seed uint64, key string) *rand.Rand { return sim.Stream(seed, "cut/"+key) }

// properties returns Properties as a list (nil: every property).
func (c Config) properties() []string {
	if c.Properties == "" {
		return nil
	}
	return strings.Split(c.Properties, ",")
}

// ValidProperties checks a Config.Properties value: every name must be a
// property of oracle.Registry.
func ValidProperties(list string) error {
	if list == "" {
		return nil
	}
	_, err := oracle.Selection(strings.Split(list, ","))
	return err
}
