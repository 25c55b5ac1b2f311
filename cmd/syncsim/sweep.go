package main

import (
	"fmt"
	"sync"
	"time"

	"github.com/syncsim/syncsim/scenarios"
	"github.com/syncsim/syncsim/sim"
)

// sweepTraceKeep bounds the trace lines one sweep run holds: enough for a
// report's tail, while the hash still covers every line. It is what keeps a
// sweep's memory flat in the number of seeds.
const sweepTraceKeep = 64

// reportTailLines is how many of the last trace lines a report prints.
const reportTailLines = 20

// windowPerWorker bounds how far the dispatcher may run ahead of the first
// seed whose result is not yet in, per worker: results wait in a reorder
// buffer of at most workers*windowPerWorker entries.
const windowPerWorker = 4

// sweepSpec says which seeds to run and how.
type sweepSpec struct {
	first uint64 // first seed of the whole range (all shards)
	count uint64 // seeds in the whole range
	shard shardFlag
	cfg   scenarios.Config
	// workers run seeds in parallel; results never depend on it.
	workers int
	// maxFailures stops the sweep once that many failures are committed
	// in seed order (0: no limit).
	maxFailures      int
	checkDeterminism bool
	// watchdog bounds a run's wall time without progress (0: the default).
	watchdog time.Duration
	// progress, when set, is called from the collecting goroutine with the
	// number of seeds committed so far.
	progress func(done int)
	// found, when set, is called from the collecting goroutine with each
	// failure as it is committed, in seed order, so that a failure is
	// shrunk, saved and reported before the sweep goes on: an interrupted
	// or killed sweep keeps what it found.
	found func(f *failure, i int)
	// stop, when closed (an interrupt), ends the sweep at a seed boundary:
	// no seed is handed out any more, the seeds in flight finish, and the
	// totals cover the committed prefix.
	stop <-chan struct{}
}

// seeds is how many seeds this shard runs: k = 0, 1, ... take
// seed first + i + k*n while i + k*n < count.
func (sp sweepSpec) seeds() uint64 {
	i, n := sp.shard.i, max(sp.shard.n, 1)
	if i >= sp.count {
		return 0
	}
	return (sp.count-i-1)/n + 1
}

// seedAt is the k-th seed of this shard (uint64 arithmetic wraps, which is
// fine: any seed is a seed).
func (sp sweepSpec) seedAt(k uint64) uint64 {
	return sp.first + sp.shard.i + k*max(sp.shard.n, 1)
}

// failure is one failing seed, with what its report needs. Only failures
// are kept: a passing seed leaves nothing but its counts behind.
type failure struct {
	seed     uint64
	scenario scenarios.Scenario
	property string
	detail   string
	at       time.Duration
	tail     []string // the last trace lines
	stacks   string   // goroutine stacks of a hang or deadlock
	events   int      // event lines of the failing run
	// Filled in by the shrink phase.
	file          string
	stepsBefore   int
	stepsAfter    int
	shrinkTime    time.Duration
	shrunkSeed    uint64 // the shrunk scenario's seed; the shrinker may re-draw it
	shrinkRuns    int
	shrinkErr     error
	saveErr       error
	budgetHit     bool
	shrinkSkipped string // why no shrink was tried
}

// totals is the sweep's aggregate over the committed seeds, which are
// always a prefix of the shard's seeds in seed order.
type totals struct {
	seeds    int
	passed   int
	steps    int64
	events   int64
	sim      time.Duration
	failures []*failure
	stopped  bool // maxFailures was reached before the last seed
	// interrupted: stop was closed before the last seed was committed.
	interrupted bool
	err         error // a run could not be set up: the sweep stopped there
}

func (t *totals) add(o outcome) {
	t.seeds++
	t.steps += int64(o.stats.Steps)
	t.events += int64(o.stats.Events)
	t.sim += o.stats.SimDuration
	switch {
	case o.err != nil:
		t.err = o.err
	case o.fail != nil:
		t.failures = append(t.failures, o.fail)
	default:
		t.passed++
	}
}

// outcome is one seed's result on its way to the collector.
type outcome struct {
	k     uint64
	stats sim.Stats
	fail  *failure
	err   error
}

// sweep runs the shard's seeds on spec.workers goroutines and aggregates
// their outcomes in seed order: a seed is committed only once every
// earlier seed is, and the sweep stops at a committed prefix (maxFailures,
// or a setup error), so its totals are the same for any worker count.
func sweep(sp sweepSpec) totals {
	n := sp.seeds()
	workers := max(sp.workers, 1)
	jobs := make(chan uint64)
	results := make(chan outcome, workers)
	window := make(chan struct{}, workers*windowPerWorker)
	done := make(chan struct{})
	var once sync.Once
	finish := func() { once.Do(func() { close(done) }) }
	go func() { // an interrupt stops the dispatcher like an early stop
		select {
		case <-sp.stop:
			finish()
		case <-done:
		}
	}()

	go func() { // dispatcher: hands out seed indexes, at most a window ahead
		defer close(jobs)
		for k := uint64(0); k < n; k++ {
			select {
			case window <- struct{}{}:
			case <-done:
				return
			}
			select {
			case jobs <- k:
			case <-done:
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for k := range jobs {
				results <- runSeed(sp, k)
			}
		})
	}
	go func() { wg.Wait(); close(results) }()

	var t totals
	pending := make(map[uint64]outcome, cap(window))
	next := uint64(0)
	stopped := false
	for o := range results {
		if stopped {
			continue // drain so that every worker can exit
		}
		pending[o.k] = o
		for {
			o, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			<-window
			t.add(o)
			if o.fail != nil && sp.found != nil {
				sp.found(o.fail, len(t.failures))
			}
			if sp.progress != nil {
				sp.progress(t.seeds)
			}
			if t.err != nil || (sp.maxFailures > 0 && len(t.failures) >= sp.maxFailures) {
				stopped = true
				t.stopped = next < n
				finish()
				break
			}
		}
	}
	finish()
	// An interrupt that came too late to cut anything off is no interrupt.
	t.interrupted = interrupted(sp.stop) && !t.stopped && t.err == nil && uint64(t.seeds) < n
	return t
}

// interrupted reports whether stop is closed (nil never is).
func interrupted(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// runSeed runs one seed (twice with checkDeterminism) with a bounded trace.
func runSeed(sp sweepSpec, k uint64) outcome {
	seed := sp.seedAt(k)
	s := scenarios.FromSeed(seed, sp.cfg)
	ro := scenarios.RunOptions{TraceKeep: sweepTraceKeep, Watchdog: sp.watchdog}
	r, err := scenarios.Run(s, ro)
	if err != nil {
		return outcome{k: k, err: fmt.Errorf("seed %d: %w", seed, err)}
	}
	o := outcome{k: k, stats: r.Stats}
	if sp.checkDeterminism && !hung(r) {
		r2, err := scenarios.Run(s, ro)
		if err != nil {
			return outcome{k: k, err: fmt.Errorf("seed %d (second run): %w", seed, err)}
		}
		if r2.Hash != r.Hash {
			o.fail = determinismFailure(s, r, r2)
			return o
		}
	}
	if v := r.Violation; v != nil {
		o.fail = newFailure(s, r, v.Property, v.Detail, v.At)
		o.fail.stacks = v.Stacks
		switch {
		case v.Property == "hang":
			o.fail.shrinkSkipped = "a hang is not shrunk: every candidate that still hangs waits out the watchdog"
		case hung(r):
			o.fail.shrinkSkipped = "a livelock the watchdog stopped is not shrunk: every candidate that still fails waits it out"
		}
	}
	return o
}

// hung reports whether the wall-clock watchdog gave the run's verdict (a
// hang, or a livelock too slow for the runtime's bound).
func hung(r scenarios.Result) bool { return r.Violation != nil && r.Violation.FromWatchdog() }

func newFailure(s scenarios.Scenario, r scenarios.Result, property, detail string, at time.Duration) *failure {
	return &failure{
		seed: s.Seed, scenario: s, property: property, detail: detail, at: at,
		tail: lastLines(r.Trace.Lines(), reportTailLines), events: r.Trace.Len(),
		stepsBefore: scenarios.Steps(s.Ops), stepsAfter: scenarios.Steps(s.Ops),
	}
}

// determinismProperty names the failure of two runs of one seed that part.
const determinismProperty = "determinism"

// determinismFailure reruns both sides with full traces to find the first
// line where they part; the reruns may agree when the cause is rare, and
// the detail says so.
func determinismFailure(s scenarios.Scenario, r1, r2 scenarios.Result) *failure {
	detail := fmt.Sprintf("two runs gave trace hashes %.12s and %.12s", r1.Hash, r2.Hash)
	a, errA := scenarios.Run(s, scenarios.RunOptions{})
	b, errB := scenarios.Run(s, scenarios.RunOptions{})
	switch {
	case errA != nil || errB != nil:
		detail += fmt.Sprintf("; full reruns failed: %v %v", errA, errB)
	default:
		if i, la, lb, differ := sim.FirstDiff(a.Trace.Lines(), b.Trace.Lines()); differ {
			detail += fmt.Sprintf("; full reruns first differ at line %d: %q vs %q", i+1, la, lb)
		} else {
			detail += "; full reruns agreed (rare nondeterminism)"
		}
	}
	f := newFailure(s, r1, determinismProperty, detail, 0)
	f.shrinkSkipped = "determinism failures are not shrunk"
	return f
}

func lastLines(lines []string, n int) []string {
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}
