package scenarios

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/workspace"
)

// RunOptions are the knobs of one run that are not part of the scenario.
type RunOptions struct {
	// Scheduler overrides Config.Scheduler with a user's own store. The
	// factory is called at every host start.
	Scheduler sim.SchedulerFactory
	// LocalStore overrides Config.LocalStore with a user's own local store
	// (files and cursors). The factory is called at every host start.
	LocalStore sim.StoreFactory
	// Dir holds file-backed stores; "" makes a temporary directory that the
	// run removes.
	Dir string
	// TraceKeep bounds the trace lines kept in memory (0: all).
	TraceKeep int
	// NoLiveness skips the fault-free tail (the shrinker uses it only when
	// the property it keeps is not a liveness one).
	NoLiveness bool
	// RecordSchedules writes the schedule (and the cut) every group ran
	// under into Result.Recorded: a scenario that replays this run exactly
	// whatever the seed's strategy.
	RecordSchedules bool
}

// Result is the outcome of one run.
type Result struct {
	Violation *sim.Violation
	Trace     *sim.Trace
	Hash      string
	Stats     sim.Stats
	// Recorded is the scenario with every group's schedule written in
	// (RecordSchedules only; groups the run never reached keep theirs).
	Recorded Scenario
}

// Run executes s: builds the host, applies every op, then the liveness
// tail. It returns an error only when the run could not be set up.
func Run(s Scenario, o RunOptions) (Result, error) {
	if err := s.Validate(); err != nil {
		return Result{}, err
	}
	cfg, cleanup, err := hostConfig(s, o)
	if err != nil {
		return Result{}, err
	}
	defer cleanup()
	h, err := sim.NewHost(cfg)
	if err != nil {
		return Result{}, err
	}
	rec := s
	if o.RecordSchedules {
		rec.Ops = cloneOps(s.Ops)
	}
	keys := opKeys(s.Ops)
	h.SetOp("start", nil)
	v := h.Step()
	for i, op := range s.Ops {
		if v != nil {
			break
		}
		h.SetOp(keys[i], nil)
		var ran ranGroup
		v, ran = apply(h, op, cutStream(s.Seed, keys[i]))
		if o.RecordSchedules && op.Kind == OpGroup {
			rec.Ops[i].Schedule, rec.Ops[i].Cut = ran.schedule, ran.cut
		}
	}
	if v == nil && !o.NoLiveness {
		h.SetOp("liveness", nil)
		v = h.Liveness()
	}
	closeErr := h.Close()
	if v == nil && closeErr != nil {
		return Result{}, closeErr
	}
	return Result{Violation: v, Trace: h.Trace(), Hash: h.Trace().Hash(), Stats: h.Stats(), Recorded: rec}, nil
}

// ranGroup is how a group ran: its schedule, and its cut when a host
// restart cut it. An empty schedule (no choice point) is still written.
type ranGroup struct {
	schedule []string
	cut      int
}

func hostConfig(s Scenario, o RunOptions) (sim.Config, func(), error) {
	strategy, err := sim.DrawStrategy(s.Config.Strategy, s.Seed)
	if err != nil {
		return sim.Config{}, func() {}, err
	}
	cfg := sim.Config{
		Seed: s.Seed, Backends: s.Config.Backends, Retry: s.Config.Retry,
		Profile: s.Profile, TraceKeep: o.TraceKeep,
		NoScheduler: s.Config.Scheduler == schedulerNone,
		Strategy:    strategy,
	}
	if s.Config.MaxEntries > 0 {
		cfg.Budget = &workspace.Budget{MaxEntries: s.Config.MaxEntries, MaxBytes: workspace.DefaultBudget.MaxBytes}
	}
	cleanup := func() {}
	cfg.Scheduler = o.Scheduler
	cfg.LocalStore = o.LocalStore
	if cfg.Scheduler != nil || cfg.LocalStore != nil || s.Config.Scheduler == "sqlite" || s.Config.LocalStore == "sqlite" {
		// File-backed stores get a directory private to this run.
		cfg.Dir = o.Dir
		if cfg.Dir == "" {
			d, err := os.MkdirTemp("", "syncsim-")
			if err != nil {
				return cfg, cleanup, err
			}
			cfg.Dir, cleanup = d, func() { os.RemoveAll(d) }
		}
	}
	if cfg.Scheduler == nil && s.Config.Scheduler == "sqlite" {
		cfg.Scheduler = func(dir string) (scheduler.Scheduler, error) {
			return scheduler.OpenSQLite(filepath.Join(dir, "intents.db"))
		}
	}
	if cfg.LocalStore == nil && s.Config.LocalStore == "sqlite" {
		cfg.LocalStore = func(dir string) (workspace.Store, error) {
			return workspace.OpenSQLiteStore(filepath.Join(dir, "local.db"))
		}
	}
	if s.Config.Bug != "" {
		bug, _ := BugByName(s.Config.Bug)
		cfg.Mutant = bug.mutant
		cfg.Alarm = bug.alarm
		if bug.forgetful {
			cfg.Scheduler = forgetfulFactory()
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
	case OpExec, OpWrite, OpRetry:
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
		return h.RestartHost()
	case OpPlant:
		return h.PlantIntent(op.Backend, op.Attempt, op.Stale)
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
	restart := false
	for _, m := range op.Ops {
		switch m.Kind {
		case OpHostRestart:
			restart = true
		case OpAdvance:
			h.SpawnTick(m.Dur)
		default:
			spawn(h, m)
		}
	}
	h.SetSchedule(op.Schedule)
	if !restart {
		v := h.Step()
		return v, ranGroup{schedule: nonNil(h.LastSchedule())}
	}
	n := op.Cut
	if n == 0 {
		n = 1 + cut.IntN(maxCutSwitches)
	}
	v := h.StepCut(n)
	return v, ranGroup{schedule: nonNil(h.LastSchedule()), cut: n}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// maxCutSwitches bounds how far into a group a host restart may cut.
const maxCutSwitches = 24

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
		h.SpawnExec(op.Backend, mode, op.Writes)
	case OpWrite:
		h.SpawnWrite(op.Backend)
	case OpRetry:
		why := "due"
		if op.Early {
			why = "early"
		}
		h.SpawnRetry(op.Backend, why)
	}
}
