package scenarios

import (
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/sim/oracle"
	"github.com/syncsim/syncsim/workspace"
)

// RunOptions are the knobs of one run that are not part of the scenario.
type RunOptions struct {
	// Scheduler overrides Config.Scheduler with a user's own store. The
	// factory is called at every host start. A factory that keeps state
	// (a memory store that survives host restarts) would carry it from run
	// to run: give NewScheduler instead when one RunOptions serves many runs
	// (Shrink, a loop).
	Scheduler sim.SchedulerFactory
	// NewScheduler, when set, is called once at the start of every Run for
	// a fresh Scheduler factory, so that no store state leaks across runs.
	// It wins over Scheduler.
	NewScheduler func() sim.SchedulerFactory
	// LocalStore overrides Config.LocalStore with a user's own local store
	// (files and cursors). The factory is called at every host start. As
	// with Scheduler, a factory that keeps state carries it from run to
	// run: give NewLocalStore when one RunOptions serves many runs.
	LocalStore sim.StoreFactory
	// NewLocalStore, when set, is called once at the start of every Run for
	// a fresh local-store factory. It wins over LocalStore.
	NewLocalStore func() sim.StoreFactory
	// Dir holds file-backed stores; "" makes a temporary directory that the
	// run removes.
	Dir string
	// TraceKeep bounds the trace lines kept in memory (0: all).
	TraceKeep int
	// TimePrecision is the granularity at which a plugged-in intent store
	// keeps NotBefore (0: the nanosecond); see sim.Config.TimePrecision.
	TimePrecision time.Duration
	// NoLiveness skips the fault-free tail (the shrinker uses it only when
	// the property it keeps is not a liveness one).
	NoLiveness bool
	// Watchdog is how long the run may make no progress before it is given
	// up as property hang (0: sim.DefaultWatchdog; negative: no watchdog).
	Watchdog time.Duration
	// RecordSchedules writes the schedule (and the cut) every group ran
	// under into Result.Recorded: a scenario that replays this run exactly
	// whatever the seed's strategy.
	RecordSchedules bool
	// NewCheckers, when set, is called once at the start of every Run for
	// checkers of the user's own (oracle.Checker), judged after the
	// selected properties on the same history. A checker keeps state
	// across one run's events, so every run gets fresh ones.
	NewCheckers func() []oracle.Checker
	// CheckerClock, when set, times the built-in checkers' calls
	// (oracle.Judge.Costing) into Result.CheckerCosts.
	CheckerClock func() time.Duration
	// noProbes turns the host's probes off (sim.Config.NoProbes): for the
	// package's tests of what generated operations reach on their own.
	noProbes bool
}

// watchdog resolves RunOptions.Watchdog.
func (o RunOptions) watchdog() time.Duration {
	if o.Watchdog == 0 {
		return sim.DefaultWatchdog
	}
	return o.Watchdog
}

// Result is the outcome of one run.
type Result struct {
	Violation *sim.Violation
	Trace     *sim.Trace
	Hash      string
	Stats     sim.Stats // Steps: the steps run, as Steps counts them
	// Recorded is the scenario with every group's schedule written in
	// (RecordSchedules only; groups the run never reached keep theirs).
	Recorded Scenario
	// CheckerCosts is what each built-in checker spent (RunOptions.CheckerClock
	// only).
	CheckerCosts []oracle.Cost
}

// Run executes s: builds the host, applies every op, then the liveness
// tail. It returns an error only when the run could not be set up. A run
// that stops making progress for o.Watchdog of wall time (an actor blocked
// for real) is given up and reported as property hang; its goroutines are
// left behind.
func Run(s Scenario, o RunOptions) (Result, error) {
	if err := s.Validate(); err != nil {
		return Result{}, err
	}
	if o.NewScheduler != nil {
		o.Scheduler = o.NewScheduler()
	}
	if o.NewLocalStore != nil {
		o.LocalStore = o.NewLocalStore()
	}
	cfg, cleanup, err := hostConfig(s, o)
	if err != nil {
		return Result{}, err
	}
	defer cleanup()
	rj, err := judge(&cfg, s, o)
	if err != nil {
		return Result{}, err
	}
	var host atomic.Pointer[sim.Host]
	var res Result
	watched := func() sim.Watched {
		if h := host.Load(); h != nil {
			return h
		}
		return nil
	}
	timeout := o.watchdog()
	if sim.WatchRun(timeout, watched, func() { res, err = run(s, o, cfg, &host); res.CheckerCosts = rj.costs(o.CheckerClock != nil) }) {
		return res, err
	}
	h := host.Load()
	if h == nil {
		return Result{Violation: sim.HangBeforeStart(timeout), Trace: sim.NewTrace(sim.Epoch)}, nil
	}
	v := h.Hang(timeout)
	return Result{Violation: v, Trace: h.Trace(), Hash: h.Trace().Hash(), Stats: h.Stats()}, nil
}

// run is Run's body, on the watched goroutine; host is published as soon
// as it exists so that the watchdog can read its progress.
func run(s Scenario, o RunOptions, cfg sim.Config, host *atomic.Pointer[sim.Host]) (Result, error) {
	h, err := sim.NewHost(cfg)
	if err != nil {
		return Result{}, err
	}
	host.Store(h)
	if v := h.Violation(); v != nil {
		// The system under test failed at the first host start (a store
		// that cannot open, a refused build, a panic): no step runs.
		// A close error (or panic) is not reported: the violation
		// already is.
		h.Guard(func() *sim.Violation { _ = h.Close(); return nil })
		return Result{Violation: v, Trace: h.Trace(), Hash: h.Trace().Hash(), Stats: h.Stats(), Recorded: s}, nil
	}
	rec := s
	if o.RecordSchedules {
		rec.Ops = cloneOps(s.Ops)
	}
	keys := opKeys(s.Ops)
	h.SetOp("start", nil)
	// Every call into the host is guarded: it runs system-under-test
	// code outside any actor too (sim.Host.Guard).
	v := h.Guard(h.Step)
	steps := 0 // steps run, as Steps counts them
	for i, op := range s.Ops {
		if v != nil {
			break
		}
		steps += Steps(s.Ops[i : i+1])
		h.SetOp(keys[i], nil)
		var ran ranGroup
		v = h.Guard(func() (v *sim.Violation) {
			var cut interface{ IntN(int) int }
			if op.Kind == OpGroup {
				cut = cutStream(s.Seed, keys[i]) // only a group can be cut
			}
			v, ran = apply(h, op, cut)
			return v
		})
		if o.RecordSchedules && op.Kind == OpGroup {
			rec.Ops[i] = rec.Ops[i].withLanding(parsedSchedule(ran))
		}
	}
	if v == nil && !o.NoLiveness {
		h.SetOp("liveness", nil)
		v = h.Guard(h.Liveness)
	}
	var closeErr error
	if cv := h.Guard(func() *sim.Violation { closeErr = h.Close(); return nil }); v == nil {
		v = cv
	}
	if v == nil && closeErr != nil {
		return Result{}, closeErr
	}
	st := h.Stats()
	st.Steps = steps // the host counts its own steps (a group is one); reports count Steps
	return Result{Violation: v, Trace: h.Trace(), Hash: h.Trace().Hash(), Stats: st, Recorded: rec}, nil
}

// ranGroup is how a group ran: its schedule, its cut (in decisions or in
// local-store calls) when a host restart cut it, and where its cancel
// landed. An empty schedule (no choice point) is still written.
type ranGroup parsedSchedule

func hostConfig(s Scenario, o RunOptions) (sim.Config, func(), error) {
	strategy, err := sim.DrawStrategy(s.Config.Strategy, s.Seed)
	if err != nil {
		return sim.Config{}, func() {}, err
	}
	cfg := sim.Config{
		Seed: s.Seed, Backends: s.Config.Backends, Retry: s.Config.Retry,
		Profile: s.Profile, TraceKeep: o.TraceKeep, TimePrecision: o.TimePrecision,
		NoScheduler: s.Config.Scheduler == schedulerNone,
		NoRuntimeID: s.Config.NoRuntimeID,
		SyncNone:    s.Config.SyncNone,
		BackendIDs:  s.Config.backendIDs(),
		Strategy:    strategy,
		NoProbes:    o.noProbes,
	}
	cfg.Budget = s.Config.budget()
	cfg.PushBatch = s.Config.pushBudget()
	cleanup := func() {}
	cfg.Scheduler = o.Scheduler
	cfg.LocalStore = o.LocalStore
	if cfg.Scheduler != nil || cfg.LocalStore != nil || s.Config.Scheduler == "sqlite" || s.Config.LocalStore == "sqlite" {
		// File-backed stores get a directory private to this run.
		cfg.Dir = o.Dir
		if cfg.Dir == "" {
			d, err := mkRunDir()
			if err != nil {
				return cfg, cleanup, err
			}
			cfg.Dir, cleanup = d, func() { os.RemoveAll(d) }
		}
	}
	if cfg.Scheduler == nil && s.Config.Scheduler == "sqlite" {
		cfg.Scheduler = func(dir string) (scheduler.Scheduler, error) {
			return openIntentStore(filepath.Join(dir, "intents.db"))
		}
	}
	if cfg.LocalStore == nil && s.Config.LocalStore == "sqlite" {
		cfg.LocalStore = func(dir string) (workspace.Store, error) {
			return openLocalStore(filepath.Join(dir, "local.db"))
		}
	}
	if s.Config.Bug != "" {
		bug, _ := BugByName(s.Config.Bug)
		cfg.Mutant = bug.mutant
		cfg.Alarm = bug.alarm
		if bug.forgetful {
			cfg.Scheduler = forgetfulFactory()
		}
		if bug.blocking {
			cfg.Scheduler = BlockingSchedulerFactory(3)
		}
	}
	return cfg, cleanup, nil
}

// apply performs one op on the host; for a group it also says how the
// group ran.
func apply(h *sim.Host, op Op, cut interface{ IntN(int) int }) (*sim.Violation, ranGroup) {
	if op.Kind == OpGroup {
		return applyGroup(h, op, cut)
	}
	return applyOne(h, op), ranGroup{}
}

func applyOne(h *sim.Host, op Op) *sim.Violation {
	switch op.Kind {
	case OpExec, OpWrite, OpRetry, OpPull:
		if v := prepare(h, op); v != nil {
			return v
		}
		spawn(h, op)
		return h.Step()
	case OpAdvance:
		return h.Advance(op.Dur)
	case OpCrash:
		h.Crash(op.Backend)
	case OpRestart:
		h.Restart(op.Backend)
	case OpLoseIdentity:
		h.LoseIdentity(op.Backend, op.None)
	case OpTruncate:
		h.Truncate(op.Backend)
	case OpHostRestart:
		if op.Clean {
			return h.ShutdownHost()
		}
		return h.RestartHost()
	case OpPlant:
		if op.TargetAhead {
			return h.PlantIntentAhead(op.Backend, op.Attempt, op.Fence, op.Target)
		}
		return h.PlantIntent(op.Backend, op.Attempt, op.Fence, op.Target)
	case OpInject:
		if err := h.Inject(op.Backend, op.Armed()); err != nil {
			// Validate checked the fault before the run started.
			panic(fmt.Sprintf("scenarios: inject: %v", err))
		}
	default:
		panic(fmt.Sprintf("scenarios: unknown op kind %d", op.Kind))
	}
	return nil
}

// applyGroup runs a group's members concurrently in one step, under its
// written schedule when it has one.
func applyGroup(h *sim.Host, op Op, cut interface{ IntN(int) int }) (*sim.Violation, ranGroup) {
	// Time moves for retries that wait to be due before anything of the
	// group starts, so the group's members all run in the one step.
	for _, m := range op.Ops {
		if v := prepare(h, m); v != nil {
			return v, ranGroup{}
		}
	}
	restart, cancel := false, false
	for _, m := range op.Ops {
		switch m.Kind {
		case OpHostRestart:
			restart = true
		case OpCancel:
			cancel = true
		case OpAdvance:
			h.SpawnTick(m.Dur)
		default:
			spawn(h, m)
		}
	}
	h.SetSchedule(op.Schedule)
	switch {
	case restart && op.CutLocal > 0:
		v := h.StepCutLocal(op.CutLocal)
		return v, ranGroup{schedule: nonNil(h.LastSchedule()), cutLocal: op.CutLocal}
	case restart && op.Cut > 0:
		v := h.StepCut(op.Cut)
		return v, ranGroup{schedule: nonNil(h.LastSchedule()), cut: op.Cut}
	case restart:
		n := 1 + cut.IntN(maxCutSwitches)
		if cut.IntN(2) == 0 {
			// Half the crashes land inside the local store's sequences.
			k := 1 + n%maxCutLocalCalls
			v := h.StepCutLocal(k)
			return v, ranGroup{schedule: nonNil(h.LastSchedule()), cutLocal: k}
		}
		v := h.StepCut(n)
		return v, ranGroup{schedule: nonNil(h.LastSchedule()), cut: n}
	case cancel:
		// NB: with a host restart in the group too, the crash wins: a
		// cancel there would add nothing the cut does not.
		h.SetCancel(op.Cancel)
		v := h.StepCancel(cut)
		return v, ranGroup{schedule: nonNil(h.LastSchedule()), cancel: h.LastCancel()}
	}
	v := h.Step()
	return v, ranGroup{schedule: nonNil(h.LastSchedule())}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// maxCutLocalCalls bounds how many local-store calls into a group a host
// restart counted in local calls may cut (an exec makes about ten).
const maxCutLocalCalls = 16

// maxCutSwitches bounds how far into a group a host restart may cut: far
// enough to reach a post-command pull's local-store calls (every call into
// the runtime, the intent store and the local store is a decision).
const maxCutSwitches = 64

// prepare moves time for a retry that waits until its intent is due.
func prepare(h *sim.Host, op Op) *sim.Violation {
	if op.Kind != OpRetry || op.Early {
		return nil
	}
	if due, ok := h.IntentDue(op.Backend); ok {
		return h.AdvanceTo(due)
	}
	return nil
}

func spawn(h *sim.Host, op Op) {
	switch op.Kind {
	case OpExec:
		mode := workspace.SyncWait
		if op.Mode == Defer {
			mode = workspace.SyncDefer
		}
		if op.Staged {
			h.SpawnStagedExec(op.Backend, mode, op.Writes)
			return
		}
		if op.Size > 0 {
			h.SpawnExecSized(op.Backend, mode, op.Writes, op.Size)
			return
		}
		h.SpawnExec(op.Backend, mode, op.Writes)
	case OpWrite:
		if op.Delete {
			h.SpawnDelete(op.Backend)
			return
		}
		h.SpawnWritesSized(op.Backend, op.Files, op.Size)
	case OpRetry:
		why := "due"
		if op.Early {
			why = "early"
		}
		h.SpawnRetry(op.Backend, why)
	case OpPull:
		h.SpawnPull(op.Backend)
	}
}
