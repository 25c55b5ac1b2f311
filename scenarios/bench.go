package scenarios

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/syncsim/syncsim/scenarios/internal/benchapi"
)

// The harness benchmark (`syncsim bench`): what one scenario costs with
// SUT, model and trace all active, in the default shape users sweep and
// the memory-only one, against the floor of the direct runner
// (bench_direct.go), all in interleaved rounds (bench_arms.go); then
// against time driven through clock.Mock, how the cost grows with scenario
// length, and whether the heap stays flat over a long sweep.
//
// Costs are process CPU time (processCPU: user+sys of every thread, actor
// goroutines and GC included) where the figure is a cost, so that a
// machine shared with other work still gives comparable ratios; one CPU
// second is one core busy for one second, so rates per CPU second are
// rates per core. Wall time is used where waiting is the point
// (clock.Mock sleeps) and is reported next to every rate.

// Limits of the measurement (STYLE 13): every loop below is bounded.
const (
	// growthShortSteps and growthLongSteps are the Config.Steps whose
	// per-step costs growth compares.
	growthShortSteps = 50
	growthLongSteps  = 5000
	// maxSeedTries bounds the seeds tried to find passing growth runs (a
	// run that stops at a violation did not run all its steps).
	maxSeedTries = 1000
	// heapSampleEvery is how often the sweeps sample the heap.
	heapSampleEvery = 10 * time.Millisecond
	// mockSimRounds is how often the simulator side of the clock.Mock
	// comparison runs; its least wall time counts (the Mock side sleeps a
	// millisecond per move, which dwarfs any noise).
	mockSimRounds = 3
)

// benchSizes are the sample sizes of one benchmark run.
type benchSizes struct {
	rounds, roundSeeds int
	first              uint64
	large, small       int // heap sweep seeds
	mock               int // seeds run against clock.Mock (each costs ~1 ms per clock move)
	short, long        int // passing runs at growthShortSteps and growthLongSteps
}

// benchSizesOf sizes a run of o.
func benchSizesOf(o benchapi.Options) benchSizes {
	z := benchSizes{rounds: 7, roundSeeds: 1000, first: 1, large: 100_000, mock: 40, short: 400, long: 6}
	if o.Quick {
		z = benchSizes{rounds: benchapi.MinRounds, roundSeeds: 100, first: 1, large: 20_000, mock: 5, short: 40, long: 2}
	}
	if o.Rounds > 0 {
		z.rounds = o.Rounds
	}
	if o.RoundSeeds > 0 {
		z.roundSeeds = o.RoundSeeds
	}
	if o.FirstSeed > 0 {
		z.first = o.FirstSeed
	}
	if o.Seeds > 0 {
		z.large = o.Seeds
	}
	z.small = max(z.large/10, 1)
	return z
}

// bench measures the harness (benchrun.Bench). It returns an error only
// when a run could not be set up.
func bench(o benchapi.Options) (benchapi.Report, error) {
	z := benchSizesOf(o)
	if z.rounds < benchapi.MinRounds {
		return benchapi.Report{}, fmt.Errorf("%d rounds: a median and range need at least %d", z.rounds, benchapi.MinRounds)
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	progress := o.Progress
	if progress == nil {
		progress = func(string) {}
	}
	r := benchapi.Report{Workers: workers, Rounds: z.rounds, RoundSeeds: z.roundSeeds, FirstSeed: z.first,
		CPUTimeSource: cpuTimeSource, SeedsSmall: z.small, SeedsLarge: z.large, MockSeeds: z.mock}

	arms, err := runArmRounds(benchArms(), z.first, z.roundSeeds, z.rounds, workers, progress)
	if err != nil {
		return r, err
	}
	r.Arms = arms
	fillArmFigures(&r)
	if o.RoundsOnly {
		return r, nil
	}
	progress(fmt.Sprintf("clock.Mock, %d seeds", z.mock))
	if err := benchMock(&r, z.mock); err != nil {
		return r, err
	}
	progress(fmt.Sprintf("growth, %d rounds of %d runs of %d steps and %d of %d", z.rounds, z.short, growthShortSteps, z.long, growthLongSteps))
	if err := benchGrowth(&r, z.short, z.long, z.rounds); err != nil {
		return r, err
	}
	progress(fmt.Sprintf("heap sweep of %d seeds", z.small))
	small, err := benchSweep(z.small, workers)
	if err != nil {
		return r, err
	}
	progress(fmt.Sprintf("heap sweep of %d seeds", z.large))
	large, err := benchSweep(z.large, workers)
	if err != nil {
		return r, err
	}
	r.PeakHeapBytesSmall, r.PeakHeapBytesLarge = small.peakHeap, large.peakHeap
	r.Violations = large.violations
	return r, nil
}

// fillArmFigures derives the report's figures from its arms' rounds.
func fillArmFigures(r *benchapi.Report) {
	arm := func(name string) benchapi.Arm { a, _ := r.Arm(name); return a }
	memory, direct := arm(benchapi.ArmMemory), arm(benchapi.ArmDirect)
	r.ScenariosPerSec = memory.ScenariosPerSec()
	r.ScenariosPerSecDefault = arm(benchapi.ArmDefault).ScenariosPerSec()
	r.EventsPerSec = memory.EventsPerSec()
	r.TimeCompression = memory.TimeCompression()
	wall := memory.ScenariosPerSecWall()
	w := float64(max(r.Workers, 1))
	r.ScenariosPerSecWall = benchapi.Spread{Median: wall.Median / w, Min: wall.Min / w, Max: wall.Max / w}
	r.HarnessMicros, r.DirectMicros = memory.MicrosPerScenario(), direct.MicrosPerScenario()
	r.OverheadRatio = benchapi.PairedRatio(memory, direct)
	if none, ok := r.Arm(benchapi.ArmNone); ok {
		r.OracleCost = benchapi.PairedRatio(memory, none)
		r.DriverCost = benchapi.PairedRatio(none, direct)
	}
	r.DeterminismCostRatio = benchapi.PairedRatio(arm(benchapi.ArmDouble), memory)
}

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// measure returns the CPU and wall time fn took.
func measure(fn func() error) (cpu, wall time.Duration, err error) {
	c0, w0 := processCPU(), time.Now()
	err = fn()
	return processCPU() - c0, time.Since(w0), err
}

func memoryScenarios(n int) []Scenario {
	out := make([]Scenario, n)
	for i := range out {
		out[i] = FromSeed(uint64(i+1), MemoryConfig)
	}
	return out
}

func runAll(ss []Scenario) error {
	for _, s := range ss {
		if _, err := Run(s, benchRunOptions); err != nil {
			return fmt.Errorf("seed %d: %w", s.Seed, err)
		}
	}
	return nil
}

// parallel calls fn(0..n-1) on workers goroutines and returns the first
// error (the others stop taking work).
func parallel(workers, n int, fn func(i int) error) error {
	var next atomic.Int64
	var mu sync.Mutex
	var first error
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				if err := fn(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					next.Store(int64(n))
					return
				}
			}
		})
	}
	wg.Wait()
	return first
}

// benchMock compares the wall time of the direct runner on clock.Mock with
// the simulator's on the same seeds.
func benchMock(r *benchapi.Report, n int) error {
	ss := memoryScenarios(n)
	moves := 0
	_, mockWall, err := measure(func() error {
		for _, s := range ss {
			st, err := directRunMock(s)
			if err != nil {
				return fmt.Errorf("mock seed %d: %w", s.Seed, err)
			}
			moves += st.Moves
		}
		return nil
	})
	if err != nil {
		return err
	}
	var simWall time.Duration
	for i := range mockSimRounds {
		_, w, err := measure(func() error { return runAll(ss) })
		if err != nil {
			return err
		}
		if i == 0 || w < simWall {
			simWall = w
		}
	}
	r.MockMillis = float64(mockWall.Microseconds()) / 1000 / float64(n)
	r.MockMoves = float64(moves) / float64(n)
	r.VsClockMock = ratio(mockWall, simWall)
	return nil
}

// benchGrowth compares the CPU per step of passing runs at 50 and 5,000
// steps, the two sides taking turns for rounds rounds; growth is their
// ratio round by round. The heap is collected before each side, so that
// the short runs do not pay for the long runs' garbage: without it the
// 50-step side read 39-44 µs a step instead of 34-35 and growth 1.21-1.39
// instead of 1.47-1.54 (5 rounds of 400 and 6 runs, twice each way).
func benchGrowth(r *benchapi.Report, short, long, rounds int) error {
	passing := func(steps, runs int) ([]Scenario, error) {
		c := MemoryConfig
		c.Steps = steps
		var ss []Scenario
		for seed := uint64(1); len(ss) < runs; seed++ {
			if seed > maxSeedTries {
				return nil, fmt.Errorf("growth: fewer than %d of %d seeds pass at %d steps", runs, maxSeedTries, steps)
			}
			s := FromSeed(seed, c)
			res, err := Run(s, benchRunOptions)
			if err != nil {
				return nil, err
			}
			if res.Violation == nil {
				ss = append(ss, s)
			}
		}
		return ss, nil
	}
	shortRuns, err := passing(growthShortSteps, short)
	if err != nil {
		return err
	}
	longRuns, err := passing(growthLongSteps, long)
	if err != nil {
		return err
	}
	perStep := func(ss []Scenario, steps int) (float64, error) {
		runtime.GC()
		cpu, _, err := measure(func() error { return runAll(ss) })
		return float64(cpu.Nanoseconds()) / 1000 / float64(steps*len(ss)), err
	}
	var a, b, g []float64
	for range rounds {
		x, err := perStep(shortRuns, growthShortSteps)
		if err != nil {
			return err
		}
		y, err := perStep(longRuns, growthLongSteps)
		if err != nil {
			return err
		}
		a, b = append(a, x), append(b, y)
		if x > 0 {
			g = append(g, y/x)
		}
	}
	r.StepMicros50, r.StepMicros5k = benchapi.SpreadOf(a), benchapi.SpreadOf(b)
	r.Growth = benchapi.SpreadOf(g)
	return nil
}

// sweepFigures is what one benchmark sweep saw.
type sweepFigures struct {
	seeds, violations int
	events            int64
	sim               time.Duration
	cpu, wall         time.Duration
	peakHeap          uint64
}

// heapObjectsMetric is the bytes of heap objects, reachable or not yet
// swept: runtime.MemStats.HeapAlloc.
const heapObjectsMetric = "/memory/classes/heap/objects:bytes"

// benchSweep runs seeds 1..n on workers goroutines as a sweep does (a
// bounded trace per run, nothing kept of passing seeds) while sampling the
// heap, and returns the totals and the heap's peak.
func benchSweep(n, workers int) (sweepFigures, error) {
	runtime.GC()
	var f sweepFigures
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(heapSampleEvery)
		defer t.Stop()
		// runtime/metrics, not ReadMemStats: reading it does not stop the
		// world, so sampling a hundred times a second costs the sweep it
		// measures nothing. heapObjectsMetric is HeapAlloc's figure.
		sample := []metrics.Sample{{Name: heapObjectsMetric}}
		for {
			metrics.Read(sample)
			if v := sample[0].Value; v.Kind() == metrics.KindUint64 && v.Uint64() > peak.Load() {
				peak.Store(v.Uint64())
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	var next atomic.Int64
	var mu sync.Mutex
	var firstErr error
	cpu, wall, _ := measure(func() error {
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				var local sweepFigures
				for {
					k := next.Add(1)
					if k > int64(n) {
						break
					}
					res, err := Run(FromSeed(uint64(k), MemoryConfig), benchRunOptions)
					if err != nil {
						mu.Lock()
						firstErr = fmt.Errorf("seed %d: %w", k, err)
						mu.Unlock()
						next.Store(int64(n))
						break
					}
					local.seeds++
					local.events += int64(res.Stats.Events)
					local.sim += res.Stats.SimDuration
					if res.Violation != nil {
						local.violations++
					}
				}
				mu.Lock()
				f.seeds += local.seeds
				f.events += local.events
				f.sim += local.sim
				f.violations += local.violations
				mu.Unlock()
			})
		}
		wg.Wait()
		return nil
	})
	close(stop)
	<-sampled
	f.cpu, f.wall, f.peakHeap = cpu, wall, peak.Load()
	return f, firstErr
}

// init hands scenarios/benchrun the benchmark runner, which needs this
// package's internals but is not part of its API.
func init() {
	benchapi.Bench = bench
	benchapi.Strategies = benchStrategies
}
