package scenarios

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/syncsim/syncsim/scenarios/internal/benchapi"
	"github.com/syncsim/syncsim/sim/oracle"
)

// The arms of the bench (benchapi's rounds.go says how they run): the same
// seeds through the harness in the default shape and the memory-only one,
// the memory one again with every checker off, through the direct runner,
// and twice for the determinism check. Each
// round runs every arm once, in this order, on all the workers as a sweep
// does.

// benchArm is one arm: what it runs, and how one seed of it runs.
type benchArm struct {
	name, shape string
	cfg         Config
	// run runs one scenario and says what it did.
	run func(Scenario) (armRun, error)
}

// armRun is what one scenario of an arm did.
type armRun struct {
	events   int64
	sim      time.Duration
	violated bool
}

// benchRunOptions are the RunOptions of every harness arm: those of a
// `syncsim run` sweep (a bounded trace, the default watchdog).
var benchRunOptions = RunOptions{TraceKeep: benchapi.TraceKeep}

// checkersOff returns c judging no property (Properties oracle.None): the
// floor arm "none", whose quotients split the harness's overhead into the
// oracle's cost (memory ÷ none) and the driver's (none ÷ direct). It is
// the one place that says what "every checker off" is: today the oracle's
// checkers do not run, while the properties the driver still judges
// itself are computed and only not reported, so the driver's share still
// holds their cost until they move into the oracle.
func checkersOff(c Config) Config {
	c.Properties = oracle.None
	return c
}

// harnessArm runs cfg's scenarios through Run with ro.
func harnessArm(name, shape string, cfg Config, ro RunOptions) benchArm {
	return benchArm{name: name, shape: shape, cfg: cfg, run: func(s Scenario) (armRun, error) {
		res, err := Run(s, ro)
		if err != nil {
			return armRun{}, err
		}
		return armRun{events: int64(res.Stats.Events), sim: res.Stats.SimDuration, violated: res.Violation != nil}, nil
	}}
}

// benchArms are the arms of a bench, in the order each round runs them.
func benchArms() []benchArm {
	arms := []benchArm{
		harnessArm(benchapi.ArmDefault, "DefaultConfig as `syncsim run` sweeps it: memory stores, 1 seed in 16 on each SQLite store, every checker on", DefaultConfig, benchRunOptions),
		harnessArm(benchapi.ArmMemory, "MemoryConfig: DefaultConfig on the memory stores only, every checker on", MemoryConfig, benchRunOptions),
		harnessArm(benchapi.ArmNone, "the memory arm's scenarios judging no property (-properties none): the oracle's checkers off; what the driver still judges itself runs unreported", checkersOff(MemoryConfig), benchRunOptions),
	}
	return append(arms,
		benchArm{name: benchapi.ArmDirect, shape: "the memory arm's scenarios applied straight to the SUT: no actors, model, trace or checks", cfg: MemoryConfig,
			run: func(s Scenario) (armRun, error) {
				st, err := directRun(s)
				return armRun{sim: st.SimDuration}, err
			}},
		benchArm{name: benchapi.ArmDouble, shape: "the memory arm's scenarios run twice and their trace hashes compared (-check-determinism)", cfg: MemoryConfig,
			run: func(s Scenario) (armRun, error) {
				a, err := Run(s, benchRunOptions)
				if err != nil {
					return armRun{}, err
				}
				b, err := Run(s, benchRunOptions)
				if err != nil {
					return armRun{}, err
				}
				if a.Hash != b.Hash {
					return armRun{}, fmt.Errorf("two runs gave different trace hashes")
				}
				return armRun{events: int64(a.Stats.Events), sim: a.Stats.SimDuration, violated: a.Violation != nil}, nil
			}},
	)
}

// runArmRounds runs every arm over seeds first..first+n-1 for rounds
// rounds, the arms taking turns within each round.
//
// One round of every arm runs first, unmeasured, so that no round pays for
// warming caches, pools and the heap: with only every tenth seed as a
// warm-up, the first measured round of the default arm still ran 1.3-1.6
// times slower than the others (5 rounds of 200 seeds, four runs). The
// heap is collected before every measured arm, so that no arm pays for the
// garbage of the one before.
func runArmRounds(arms []benchArm, first uint64, n, rounds, workers int, progress func(string)) ([]benchapi.Arm, error) {
	scen := make([][]Scenario, len(arms))
	out := make([]benchapi.Arm, len(arms))
	for i, a := range arms {
		scen[i] = make([]Scenario, n)
		for k := range scen[i] {
			scen[i][k] = FromSeed(first+uint64(k), a.cfg)
		}
		out[i] = benchapi.Arm{Name: a.name, Shape: a.shape, Seeds: n}
	}
	for round := range rounds + 1 {
		if round == 0 {
			progress(fmt.Sprintf("warm-up: %d seeds from %d through each arm, not measured", n, first))
		} else {
			progress(fmt.Sprintf("round %d of %d: %d seeds from %d through each arm", round, rounds, n, first))
		}
		for i, a := range arms {
			runtime.GC()
			r, err := runArmOnce(a, scen[i], workers)
			if err != nil {
				return nil, fmt.Errorf("%s arm: %w", a.name, err)
			}
			if round > 0 {
				out[i].Rounds = append(out[i].Rounds, r)
			}
		}
	}
	return out, nil
}

// allocMetrics are the process's heap allocations so far, bytes and
// objects: what a round allocated is their difference.
var allocMetrics = []string{"/gc/heap/allocs:bytes", "/gc/heap/allocs:objects"}

func readAllocs() (bytes, objects uint64) {
	s := make([]metrics.Sample, len(allocMetrics))
	for i, name := range allocMetrics {
		s[i].Name = name
	}
	metrics.Read(s)
	get := func(v metrics.Value) uint64 {
		if v.Kind() == metrics.KindUint64 {
			return v.Uint64()
		}
		return 0
	}
	return get(s[0].Value), get(s[1].Value)
}

// runArmOnce runs ss through a on workers goroutines and measures it.
func runArmOnce(a benchArm, ss []Scenario, workers int) (benchapi.Round, error) {
	var (
		mu  sync.Mutex
		tot benchapi.Round
	)
	b0, o0 := readAllocs()
	cpu, wall, err := measure(func() error {
		return parallel(workers, len(ss), func(k int) error {
			r, err := a.run(ss[k])
			if err != nil {
				return fmt.Errorf("seed %d: %w", ss[k].Seed, err)
			}
			mu.Lock()
			tot.Events += r.events
			tot.Sim += r.sim
			if r.violated {
				tot.Violations++
			}
			mu.Unlock()
			return nil
		})
	})
	b1, o1 := readAllocs()
	tot.CPU, tot.Wall = cpu, wall
	tot.AllocBytes, tot.AllocObjects = b1-b0, o1-o0
	return tot, err
}
