package scenarios

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/sim/oracle"
	"github.com/syncsim/syncsim/workspace"
)

// SuiteOptions configure a whole-system property sweep.
type SuiteOptions struct {
	// NewStore returns the factory that opens the intent store under test.
	// It is called once per run — every scenario, and every candidate a
	// shrink tries — so nothing a store keeps in memory leaks from one run
	// into the next. The simulated host calls the factory at every start
	// (the first, and after each host restart) with a directory private to
	// the run, so a durable store is reopened from what it wrote and one
	// that forgets is caught. The host closes each store it opened (when it
	// has a Close method) before it opens the next. The store must
	// implement scheduler.Lister as well: the host sets its alarm from the
	// listed intents (schedulertest checks List). nil: the memory store.
	NewStore func() sim.SchedulerFactory
	// NewLocalStore returns the factory that opens the workspace's local
	// store under test (files, the local change log, the fetch and push
	// cursors: workspace.Store). Like NewStore it is called once per run
	// and its factory at every host start, with the run's directory; the
	// host drops the handle without Close at a crash and closes it (when it
	// has Close) at a clean restart and at the end. nil: the memory store.
	// NewStore and NewLocalStore may be given together.
	NewLocalStore func() sim.StoreFactory
	// Seeds is the number of scenarios (0: SYNCSIM_SEEDS, else 300).
	// -syncsim.seeds on the command line wins, so that a report's rerun
	// line pins one seed.
	Seeds int
	// FirstSeed is the first seed (0: SYNCSIM_SEED, else 1).
	// -syncsim.seed on the command line wins.
	FirstSeed uint64
	// Config shapes each scenario (zero: DefaultConfig with -syncsim.steps).
	Config Config
	// TimePrecision is the granularity at which the store keeps NotBefore
	// (0: the nanosecond). A store that keeps milliseconds sets
	// time.Millisecond, as with schedulertest.Options.TimePrecision;
	// without it, the runs whose clock reads sub-millisecond instants fail
	// intent-table.
	TimePrecision time.Duration
	// Watchdog is how long one scenario may make no progress before it is
	// reported as property hang (0: sim.DefaultWatchdog; negative: none).
	Watchdog time.Duration
	// Properties selects the properties judged, by name (nil: every one;
	// oracle.Registry lists them). Unknown names fail the suite at once.
	Properties []string
	// NewCheckers returns checkers of your own (oracle.Checker: an
	// invariant over the run's history, such as the calls your store
	// answered), fresh for every run; they are judged after the selected
	// properties, and a violation they report fails the suite like any
	// other, under the property name they give.
	NewCheckers func() []oracle.Checker
	// noProbes: RunOptions.noProbes for every run of the suite.
	noProbes bool
}

// Failure is one scenario that broke a property.
type Failure struct {
	Seed      uint64
	Scenario  Scenario
	Violation *sim.Violation
	// Tail is the end of the run's trace, for the report.
	Tail []string
	// Store names the plugged-in stores by their Go types and the option
	// that gave each, "*mystore.Store (SuiteOptions.NewStore)" ("" for the
	// built-in stores Scenario.Config names).
	Store string
	// Shrunk, when not nil, is the smallest scenario found that violates
	// the same property with the same store (Check fills it for the
	// failure it reports).
	Shrunk *Scenario
	// Replay holds the commands that run this seed again, each reproducing
	// it exactly: Check puts first the calling test pinned to the seed;
	// `syncsim replay -seed` is listed only for the built-in stores, which
	// are the only ones the command can open.
	Replay []string
}

// SweepReport is what a sweep saw.
type SweepReport struct {
	Seeds, Passed int
	FirstSeed     uint64
	// Store names the plugged-in stores as Failure.Store does ("" when none).
	Store    string
	Failures []Failure
	Reach    Reach
	// StoppedAt is the seed of a hang that ended the sweep early (0: it ran
	// every seed). A store that blocks once usually blocks again, and every
	// further hang would cost the watchdog's timeout and leak goroutines.
	StoppedAt uint64
}

// Reach counts, over a sweep, how often each fault kind, retry status and
// exec sync outcome occurred, and which credential forms were planted and
// reached a result redacted or cut: a property that never meets a case
// proves nothing about it.
type Reach struct {
	Faults   map[string]int
	Retry    map[string]int
	ExecSync map[string]int
	Secrets  map[string]int
}

func (r *Reach) add(s sim.Stats) {
	for _, m := range []struct {
		dst *map[string]int
		src map[string]int
	}{
		{&r.Faults, s.Faults}, {&r.Retry, s.Retry}, {&r.ExecSync, s.ExecSync},
		{&r.Secrets, s.Secrets},
	} {
		if *m.dst == nil {
			*m.dst = map[string]int{}
		}
		for k, v := range m.src {
			(*m.dst)[k] += v
		}
	}
}

// Table renders the counts as a fixed-width table, rows sorted.
func (r Reach) Table() string {
	var b strings.Builder
	for _, sec := range []struct {
		name string
		m    map[string]int
	}{{"fault", r.Faults}, {"retry", r.Retry}, {"exec", r.ExecSync}, {"secret", r.Secrets}} {
		keys := make([]string, 0, len(sec.m))
		for k := range sec.m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "%-6s %-32s %8d\n", sec.name, k, sec.m[k])
		}
	}
	return b.String()
}

// Sweep runs o.Seeds generated scenarios against the real workspace with
// o.NewStore's intent store and o.NewLocalStore's local store plugged in
// and reports every violation.
func Sweep(o SuiteOptions) (SweepReport, error) {
	o, err := o.withDefaults()
	if err != nil {
		return SweepReport{}, err
	}
	var store storeName
	ro := o.runOptions(&store)
	rep := SweepReport{Seeds: o.Seeds, FirstSeed: o.FirstSeed}
	for i := range o.Seeds {
		seed := o.FirstSeed + uint64(i)
		s := FromSeed(seed, o.Config)
		r, err := Run(s, ro)
		if err != nil {
			return rep, fmt.Errorf("seed %d: %w", seed, err)
		}
		rep.Reach.add(r.Stats)
		if r.Violation == nil {
			rep.Passed++
			continue
		}
		f := Failure{Seed: seed, Scenario: s, Violation: r.Violation, Tail: r.Trace.Lines(), Store: store.get()}
		if f.Store == "" && o.Config.Retry == (workspace.RetryOptions{}) && o.Config.MaxEntries == 0 && o.Config.MaxBytes == 0 {
			f.Replay = []string{syncsimReplayLine(seed, o.Config)}
		}
		rep.Failures = append(rep.Failures, f)
		if r.Violation.Property == "hang" {
			rep.StoppedAt = seed
			break
		}
	}
	rep.Store = store.get()
	return rep, nil
}

// runOptions are the options of every run of the suite: a fresh factory
// per run from NewStore, checked and named on the way.
func (o SuiteOptions) runOptions(name *storeName) RunOptions {
	ro := RunOptions{TraceKeep: tailLines, TimePrecision: o.TimePrecision, Watchdog: o.Watchdog, noProbes: o.noProbes, NewCheckers: o.NewCheckers}
	if o.NewStore != nil {
		ro.NewScheduler = func() sim.SchedulerFactory { return checkedFactory(o.NewStore(), name) }
	}
	if o.NewLocalStore != nil {
		ro.NewLocalStore = func() sim.StoreFactory { return namedLocalFactory(o.NewLocalStore(), name) }
	}
	return ro
}

// tailLines is how much of a failing trace a report shows.
const tailLines = 24

// withDefaults fills what o leaves zero. -syncsim.seeds and -syncsim.seed
// given on the command line win over o (a report's rerun line pins one seed
// that way, whatever the test's code says); their environment twins only
// fill what o leaves zero.
func (o SuiteOptions) withDefaults() (SuiteOptions, error) {
	var err error
	switch {
	case *flagSeeds > 0:
		o.Seeds = *flagSeeds
	case o.Seeds <= 0:
		if o.Seeds, err = seedsOr(defaultSuiteSeeds); err != nil {
			return o, err
		}
	}
	switch {
	case *flagSeed > 0:
		o.FirstSeed = *flagSeed
	case o.FirstSeed == 0:
		if o.FirstSeed, err = firstSeed(); err != nil {
			return o, err
		}
	}
	if o.Config == (Config{}) {
		if o.Config, err = configWithFlags(DefaultConfig); err != nil {
			return o, err
		}
	}
	if len(o.Properties) > 0 {
		o.Config.Properties = strings.Join(o.Properties, ",")
	}
	if err := ValidProperties(o.Config.Properties); err != nil {
		return o, err
	}
	return o, nil
}

// defaultSuiteSeeds is the seed budget of a Sweep or Check that names none.
const defaultSuiteSeeds = 300

// Check is Sweep for a test: it fails t with a report of the first
// violation, shrunk with the same store plugged in, naming the store and
// ending in the line that runs the test again on that one seed. With -v it
// logs how many seeds ran. A user checks their own store in a few lines:
//
//	func TestMyStoreInTheWholeSystem(t *testing.T) {
//		scenarios.Check(t, scenarios.SuiteOptions{
//			NewStore: func() sim.SchedulerFactory {
//				return func(dir string) (scheduler.Scheduler, error) {
//					return mystore.Open(filepath.Join(dir, "intents.db"))
//				}
//			},
//		})
//	}
func Check(t testing.TB, o SuiteOptions) {
	t.Helper()
	o, err := o.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Sweep(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("scenarios.Check: %d seeds from %d, %d passed, %d failed (store %s)",
		rep.Seeds, rep.FirstSeed, rep.Passed, len(rep.Failures), orBuiltIn(rep.Store, o.Config))
	if len(rep.Failures) == 0 {
		return
	}
	f := rep.Failures[0]
	var store storeName
	note := ""
	if rep.StoppedAt != 0 {
		// A hang is not shrunk: every run of it costs the watchdog.
		note = fmt.Sprintf("(stopped at the hang of seed %d; not shrunk)\n", rep.StoppedAt)
	} else if small, _, err := Shrink(f.Scenario, f.Violation.Property, ShrinkOptions{Run: o.runOptions(&store)}); err == nil {
		f.Shrunk = &small
	} else {
		// A store that fails differently on a second run of the same
		// scenario is worth knowing about in itself.
		note = fmt.Sprintf("(not shrunk: %v)\n", err)
	}
	f.Replay = append([]string{goTestLine(t.Name(), f.Seed, o)}, f.Replay...)
	t.Fatalf("%d of %d scenarios failed; first:\n%s%s", len(rep.Failures), rep.Seeds, f.Report(), note)
}
