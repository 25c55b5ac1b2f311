package scenarios

import (
	"fmt"
	"github.com/syncsim/syncsim/scenarios/internal/benchapi"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// The harness benchmark (`syncsim bench`): what one default scenario costs
// with SUT, model and trace all active, against the floor of the direct
// runner (bench_direct.go), against time driven through clock.Mock, and how
// the cost behaves with double runs, long scenarios and long sweeps.
//
// Costs are process CPU time (user+sys, every thread: actor goroutines, GC)
// where the figure is a cost, so that a machine shared with other work
// still gives comparable ratios; one CPU second is one core busy for one
// second, so rates per CPU second are rates per core. Wall time is used
// where waiting is the point (clock.Mock sleeps) and is reported next to
// every rate.

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
	// benchRounds is how often the paired measurements repeat; the best
	// round of each side counts (the least disturbed by other work).
	benchRounds = 3
)

// benchSizes are the sample sizes of one benchmark run.
type benchSizes struct {
	large, small int // sweep seeds
	paired       int // seeds of the harness/direct/double-run comparison
	mock         int // seeds run against clock.Mock (each costs ~1 ms per clock move)
	short, long  int // passing runs at growthShortSteps and growthLongSteps
}

// benchSizesOf sizes a run of o.
func benchSizesOf(o benchapi.Options) benchSizes {
	z := benchSizes{large: 100_000, paired: 2000, mock: 40, short: 400, long: 6}
	if o.Quick {
		z = benchSizes{large: 20_000, paired: 200, mock: 5, short: 40, long: 2}
	}
	if o.Seeds > 0 {
		z.large = o.Seeds
		z.paired = min(z.paired, max(o.Seeds, 10))
	}
	z.small = max(z.large/10, 1)
	return z
}

// bench measures the harness (benchrun.Bench). It returns an error only
// when a run could not be set up.
func bench(o benchapi.Options) (benchapi.Report, error) {
	z := benchSizesOf(o)
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	progress := o.Progress
	if progress == nil {
		progress = func(string) {}
	}
	r := benchapi.Report{Shape: benchapi.Shape, Workers: workers, SeedsSmall: z.small, SeedsLarge: z.large,
		PairedSeeds: z.paired, MockSeeds: z.mock}

	progress(fmt.Sprintf("harness vs direct runner vs double run, %d seeds", z.paired))
	if err := benchPaired(&r, z.paired, workers); err != nil {
		return r, err
	}
	progress(fmt.Sprintf("clock.Mock, %d seeds", z.mock))
	if err := benchMock(&r, z.mock); err != nil {
		return r, err
	}
	progress(fmt.Sprintf("growth, %d runs of %d steps and %d of %d", z.short, growthShortSteps, z.long, growthLongSteps))
	if err := benchGrowth(&r, z.short, z.long); err != nil {
		return r, err
	}
	progress(fmt.Sprintf("sweep of %d seeds", z.small))
	small, err := benchSweep(z.small, workers)
	if err != nil {
		return r, err
	}
	progress(fmt.Sprintf("sweep of %d seeds", z.large))
	large, err := benchSweep(z.large, workers)
	if err != nil {
		return r, err
	}
	r.PeakHeapBytesSmall, r.PeakHeapBytesLarge = small.peakHeap, large.peakHeap
	r.ScenariosPerSec = perSecond(float64(large.seeds), large.cpu)
	r.EventsPerSec = perSecond(float64(large.events), large.cpu)
	r.TimeCompression = perSecond(large.sim.Seconds(), large.cpu)
	r.ScenariosPerSecWall = perSecond(float64(large.seeds), large.wall) / float64(workers)
	r.Violations = large.violations
	return r, nil
}

func perSecond(n float64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return n / d.Seconds()
}

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func micros(d time.Duration, n int) float64 { return float64(d.Microseconds()) / float64(max(n, 1)) }

// measure returns the CPU and wall time fn took.
func measure(fn func() error) (cpu, wall time.Duration, err error) {
	c0, w0 := processCPU(), time.Now()
	err = fn()
	return processCPU() - c0, time.Since(w0), err
}

// best runs fn benchRounds times and keeps the least CPU and wall.
func best(fn func() error) (cpu, wall time.Duration, err error) {
	for i := range benchRounds {
		c, w, err := measure(fn)
		if err != nil {
			return 0, 0, err
		}
		if i == 0 || c < cpu {
			cpu = c
		}
		if i == 0 || w < wall {
			wall = w
		}
	}
	return cpu, wall, nil
}

func defaultScenarios(n int) []Scenario {
	out := make([]Scenario, n)
	for i := range out {
		out[i] = FromSeed(uint64(i+1), MemoryConfig)
	}
	return out
}

func runAll(ss []Scenario) error {
	for _, s := range ss {
		if _, err := Run(s, RunOptions{TraceKeep: benchapi.TraceKeep}); err != nil {
			return fmt.Errorf("seed %d: %w", s.Seed, err)
		}
	}
	return nil
}

// benchPaired measures the same seeds through the harness, the direct
// runner and the double run of -check-determinism, each spread over the
// workers as a sweep is: with every core busy, the CPU time is the work's
// own (a lone goroutine handing off between actors also pays for waking
// the idle cores, which a sweep never has). The three alternate round by
// round, so that a slow spell of the machine falls on all of them, and
// each keeps its best round.
func benchPaired(r *benchapi.Report, n, workers int) error {
	ss := defaultScenarios(n)
	harness := func() error {
		return parallel(workers, len(ss), func(i int) error {
			_, err := Run(ss[i], RunOptions{TraceKeep: benchapi.TraceKeep})
			return err
		})
	}
	direct := func() error {
		return parallel(workers, len(ss), func(i int) error {
			_, err := directRun(ss[i])
			return err
		})
	}
	double := func() error {
		return parallel(workers, len(ss), func(i int) error {
			s := ss[i]
			a, err := Run(s, RunOptions{TraceKeep: benchapi.TraceKeep})
			if err != nil {
				return err
			}
			b, err := Run(s, RunOptions{TraceKeep: benchapi.TraceKeep})
			if err != nil {
				return err
			}
			if a.Hash != b.Hash {
				return fmt.Errorf("seed %d: two runs gave different trace hashes", s.Seed)
			}
			return nil
		})
	}
	cpu, err := bestInterleaved(harness, direct, double)
	if err != nil {
		return err
	}
	r.HarnessMicros, r.DirectMicros = micros(cpu[0], n), micros(cpu[1], n)
	r.OverheadRatio = ratio(cpu[0], cpu[1])
	r.DeterminismCostRatio = ratio(cpu[2], cpu[0])
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

// bestInterleaved runs fns in turn for benchRounds rounds and returns each
// one's least CPU time.
func bestInterleaved(fns ...func() error) ([]time.Duration, error) {
	out := make([]time.Duration, len(fns))
	for round := range benchRounds {
		for i, fn := range fns {
			c, _, err := measure(fn)
			if err != nil {
				return nil, err
			}
			if round == 0 || c < out[i] {
				out[i] = c
			}
		}
	}
	return out, nil
}

// benchMock compares the wall time of the direct runner on clock.Mock with
// the simulator's on the same seeds.
func benchMock(r *benchapi.Report, n int) error {
	ss := defaultScenarios(n)
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
	_, simWall, err := best(func() error { return runAll(ss) })
	if err != nil {
		return err
	}
	r.MockMillis = float64(mockWall.Microseconds()) / 1000 / float64(n)
	r.MockMoves = float64(moves) / float64(n)
	r.VsClockMock = ratio(mockWall, simWall)
	return nil
}

// benchGrowth compares the CPU per step of passing runs at 50 and 5,000
// steps.
func benchGrowth(r *benchapi.Report, short, long int) error {
	perStep := func(steps, runs int) (time.Duration, error) {
		c := MemoryConfig
		c.Steps = steps
		var ss []Scenario
		for seed := uint64(1); len(ss) < runs; seed++ {
			if seed > maxSeedTries {
				return 0, fmt.Errorf("growth: fewer than %d of %d seeds pass at %d steps", runs, maxSeedTries, steps)
			}
			s := FromSeed(seed, c)
			res, err := Run(s, RunOptions{TraceKeep: benchapi.TraceKeep})
			if err != nil {
				return 0, err
			}
			if res.Violation == nil {
				ss = append(ss, s)
			}
		}
		cpu, _, err := best(func() error { return runAll(ss) })
		return cpu / time.Duration(steps*runs), err
	}
	a, err := perStep(growthShortSteps, short)
	if err != nil {
		return err
	}
	b, err := perStep(growthLongSteps, long)
	if err != nil {
		return err
	}
	r.StepMicros50, r.StepMicros5k = float64(a.Nanoseconds())/1000, float64(b.Nanoseconds())/1000
	r.Growth = ratio(b, a)
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
					res, err := Run(FromSeed(uint64(k), MemoryConfig), RunOptions{TraceKeep: benchapi.TraceKeep})
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
