package scenarios

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/workspace"
)

// Config is what shapes a scenario besides its ops.
type Config struct {
	Backends int
	// Steps is the number of top-level ops Generate draws.
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
	// Strategy is how the seed's scheduling strategy is chosen: "uniform",
	// "pct" or "mix" ("" is mix: sim.DrawStrategy). A group with a written
	// schedule follows it whatever the strategy.
	Strategy string
}

// DefaultConfig is the default scenario shape: two backends, 30 ops, the
// memory store.
var DefaultConfig = Config{Backends: 2, Steps: 30, Scheduler: "memory"}

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
	{InitialDelay: time.Second, MaxDelay: time.Minute, MaxAttempts: 5},
	{InitialDelay: time.Second, MaxDelay: 4 * time.Second, MaxAttempts: 3},
	{InitialDelay: 100 * time.Millisecond, MaxDelay: time.Second, MaxAttempts: 2},
	{InitialDelay: 500 * time.Millisecond, MaxDelay: 2 * time.Second, MaxAttempts: 4},
}

var maxEntriesChoices = []int{0, 0, 1, 2}

// FromSeed draws a scenario: the swarm profile first (its own stream),
// then the per-run op weights, backoff and budget, then the ops (the
// workload stream). Fields already set in c (Retry, MaxEntries) are kept.
func FromSeed(seed uint64, c Config) Scenario {
	profile := faults.DrawProfile(sim.Stream(seed, sim.LabelProfile))
	w := sim.Stream(seed, sim.LabelWorkload)
	weights := Swarm(w)
	applyProfile(&weights, profile)
	retry := retryChoices[w.IntN(len(retryChoices))]
	if c.Retry == (workspace.RetryOptions{}) {
		c.Retry = retry
	}
	me := maxEntriesChoices[w.IntN(len(maxEntriesChoices))]
	if c.MaxEntries == 0 {
		c.MaxEntries = me
	}
	ops := Generate(w, GenConfig{Steps: c.Steps, Backends: c.Backends, MaxWrites: 3, Weights: weights})
	return Scenario{Seed: seed, Config: c, Profile: profile, Ops: ops}
}

// applyProfile switches off the fault ops the profile has off, so that a
// swarm profile decides event faults as well as per-call ones.
func applyProfile(w *Weights, p faults.Profile) {
	for op, k := range map[OpKind]faults.Kind{
		OpCrash: faults.Crash, OpRestart: faults.Restart, OpLoseIdentity: faults.LostIdentity,
		OpTruncate: faults.TruncatedLog, OpHostRestart: faults.HostRestart,
	} {
		if !p.On(k) {
			w[op] = 0
		}
	}
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
	if s.Config.Bug != "" {
		if _, ok := BugByName(s.Config.Bug); !ok {
			return fmt.Errorf("unknown bug %q (see syncsim bugs)", s.Config.Bug)
		}
	}
	return validateOps(s.Ops, s.Config.Backends, false)
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
		}
		if o.Kind == OpExec && o.Writes < 0 {
			return fmt.Errorf("op %d: negative writes", i+1)
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

// cutStream draws where a host restart inside the group keyed key cuts it:
// a stream per group, like every other per-op draw.
func cutStream(seed uint64, key string) *rand.Rand { return sim.Stream(seed, "cut/"+key) }
