package scenarios

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/syncsim/syncsim/sim"
)

// SuiteOptions configure a whole-system property sweep.
type SuiteOptions struct {
	// NewStore is called once per scenario and returns the factory that
	// opens the intent store under test. The simulated host calls that
	// factory at every start (the first, and after each host restart) with a
	// directory private to the scenario, so a durable store is reopened from
	// what it wrote and one that forgets is caught. nil: the memory store.
	NewStore func() sim.SchedulerFactory
	// Seeds is the number of scenarios (0: -syncsim.seeds, else 300).
	Seeds int
	// FirstSeed is the first seed (0: -syncsim.seed, default 1).
	FirstSeed uint64
	// Config shapes each scenario (zero: DefaultConfig with -syncsim.steps).
	Config Config
	// Watchdog is how long one scenario may make no progress before it is
	// reported as property hang (0: sim.DefaultWatchdog; negative: none).
	Watchdog time.Duration
}

// Failure is one scenario that broke a property.
type Failure struct {
	Seed      uint64
	Scenario  Scenario
	Violation *sim.Violation
	// Tail is the end of the run's trace, for the report.
	Tail []string
}

// SweepReport is what a sweep saw.
type SweepReport struct {
	Seeds, Passed int
	Failures      []Failure
	Reach         Reach
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
// o.Scheduler plugged in and reports every violation.
func Sweep(o SuiteOptions) (SweepReport, error) {
	o, err := o.withDefaults()
	if err != nil {
		return SweepReport{}, err
	}
	rep := SweepReport{Seeds: o.Seeds}
	for i := range o.Seeds {
		seed := o.FirstSeed + uint64(i)
		s := FromSeed(seed, o.Config)
		ro := RunOptions{TraceKeep: tailLines, Watchdog: o.Watchdog}
		if o.NewStore != nil {
			ro.Scheduler = o.NewStore()
		}
		r, err := Run(s, ro)
		if err != nil {
			return rep, fmt.Errorf("seed %d: %w", seed, err)
		}
		rep.Reach.add(r.Stats)
		if r.Violation == nil {
			rep.Passed++
			continue
		}
		rep.Failures = append(rep.Failures, Failure{Seed: seed, Scenario: s, Violation: r.Violation, Tail: r.Trace.Lines()})
		if r.Violation.Property == "hang" {
			rep.StoppedAt = seed
			break
		}
	}
	return rep, nil
}

// tailLines is how much of a failing trace a report shows.
const tailLines = 24

func (o SuiteOptions) withDefaults() (SuiteOptions, error) {
	var err error
	if o.Seeds == 0 {
		if o.Seeds, err = seedsOr(300); err != nil {
			return o, err
		}
	}
	if o.FirstSeed == 0 {
		if o.FirstSeed, err = firstSeed(); err != nil {
			return o, err
		}
	}
	if o.Config == (Config{}) {
		if o.Config, err = configWithFlags(DefaultConfig); err != nil {
			return o, err
		}
	}
	return o, nil
}

// Check is Sweep for a test: it fails t with a replayable report of the
// first violation. A user checks their own store in a few lines:
//
//	func TestMyStoreInTheWholeSystem(t *testing.T) {
//		scenarios.Check(t, scenarios.SuiteOptions{
//			NewStore: func() sim.SchedulerFactory {
//				return func(dir string) (scheduler.Scheduler, error) { return mystore.Open(dir) }
//			},
//		})
//	}
func Check(t testing.TB, o SuiteOptions) {
	t.Helper()
	rep, err := Sweep(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Failures) > 0 {
		stopped := ""
		if rep.StoppedAt != 0 {
			stopped = fmt.Sprintf(" (stopped at the hang of seed %d)", rep.StoppedAt)
		}
		t.Fatalf("%d of %d scenarios failed%s; first:\n%s", len(rep.Failures), rep.Seeds, stopped, rep.Failures[0].Report())
	}
}

// Report renders the failure in the fixed shape every syncsim report has,
// ending in the lines that replay it.
func (f Failure) Report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "SEED      %d\n", f.Seed)
	fmt.Fprintf(&b, "PROFILE   %s\n", f.Scenario.Profile)
	fmt.Fprintf(&b, "PROPERTY  %s\n", f.Violation.Property)
	fmt.Fprintf(&b, "DETAIL    %s\n", strings.ReplaceAll(f.Violation.Detail, "\n", "\n          "))
	fmt.Fprintf(&b, "OPS       %d steps\n", Steps(f.Scenario.Ops))
	for _, op := range f.Scenario.Ops {
		fmt.Fprintf(&b, "          %s\n", strings.ReplaceAll(op.String(), "\n", "\n          "))
	}
	b.WriteString("TRACE (last lines)\n")
	for _, l := range f.Tail {
		fmt.Fprintf(&b, "          %s\n", l)
	}
	if f.Violation.Stacks != "" {
		b.WriteString("STACKS (goroutines when it was reported)\n")
		b.WriteString(StacksExcerpt(f.Violation.Stacks, "          "))
	}
	c := f.Scenario.Config
	fmt.Fprintf(&b, "REPLAY    syncsim replay -seed %d -steps %d -backends %d%s\n", f.Seed, c.Steps, c.Backends, bugFlag(c.Bug))
	fmt.Fprintf(&b, "          go test ./scenarios -run TestSweep -syncsim.seed=%d -syncsim.seeds=1\n", f.Seed)
	return b.String()
}

func bugFlag(bug string) string {
	if bug == "" {
		return ""
	}
	return " -bug " + bug
}
