package scenarios

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/syncsim/syncsim/scenarios/internal/benchapi"

	"github.com/syncsim/syncsim/sim"
)

// The strategy benchmark (`syncsim bench -strategies`): for every planted
// bug and every strategy mode, how many failing seeds a fixed seed range
// holds and what they cost, as bugs found per CPU minute. A failing seed is
// one find: each is a distinct scenario that a hunt would have stopped at.

// benchStrategies measures every bug under uniform, pct and mix on the
// same seeds (a seed's scenario is the same under every mode; only the
// interleaving differs): benchrun.Strategies.
func benchStrategies(o benchapi.StrategyOptions) ([]benchapi.StrategyFigure, error) {
	if o.Seeds <= 0 {
		o.Seeds = 2000
	}
	if o.FirstSeed == 0 {
		o.FirstSeed = 1
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	bugs := Bugs
	if o.Bugs != nil {
		bugs = nil
		for _, name := range o.Bugs {
			b, ok := BugByName(name)
			if !ok {
				return nil, fmt.Errorf("scenarios: unknown bug %q", name)
			}
			bugs = append(bugs, b)
		}
	}
	var out []benchapi.StrategyFigure
	for _, b := range bugs {
		if o.Progress != nil {
			o.Progress(b.Name)
		}
		for _, mode := range sim.StrategyModes {
			f, err := benchStrategy(b, mode, o)
			if err != nil {
				return nil, err
			}
			out = append(out, f)
		}
	}
	return out, nil
}

func benchStrategy(b Bug, mode string, o benchapi.StrategyOptions) (benchapi.StrategyFigure, error) {
	c := DefaultConfig
	c.Bug = b.Name
	if mode != sim.StrategyMix {
		c.Strategy = mode
	}
	f := benchapi.StrategyFigure{Bug: b.Name, Strategy: mode, Seeds: o.Seeds}
	var found atomic.Int64
	first := make([]bool, o.Seeds)
	cpu, _, err := measure(func() error {
		return parallel(o.Workers, o.Seeds, func(i int) error {
			r, err := Run(FromSeed(o.FirstSeed+uint64(i), c), RunOptions{TraceKeep: benchapi.TraceKeep})
			if err != nil {
				return fmt.Errorf("bug %s, seed %d: %w", b.Name, o.FirstSeed+uint64(i), err)
			}
			if r.Violation != nil {
				found.Add(1)
				first[i] = true
			}
			return nil
		})
	})
	if err != nil {
		return f, err
	}
	f.Found, f.CPU = int(found.Load()), cpu
	for i, ok := range first {
		if ok {
			f.FirstFound = i + 1
			break
		}
	}
	if cpu > 0 {
		f.FoundPerCPUMinute = float64(f.Found) / cpu.Minutes()
	}
	return f, nil
}
