package main

import (
	"crypto/rand"
	"encoding/binary"
	"flag"
	"fmt"
	"time"
)

// defaultSeeds is the seed budget of a bare `syncsim run`: measured at
// about 5 s on 2 cores (2,000 scenarios/s), well inside the one-minute
// promise.
const defaultSeeds = 10000

// maxSeedsPerRun bounds -seeds; sweeps past it are split with -shard.
const maxSeedsPerRun = 1 << 40

// defaultSaveDir is where shrunk failures go unless -save says otherwise.
const defaultSaveDir = "syncsim-failures"

// randomSeedBound keeps a random first seed short enough to type and
// exact in any JSON reader (below 2^53).
const randomSeedBound = 1_000_000_000

// runFlags are the flags of `syncsim run`.
type runFlags struct {
	shape            shapeFlags
	seed             seedFlag
	shard            shardFlag
	seeds            uint64
	workers          int
	checkDeterminism bool
	save             string
	json             bool
	maxFailures      int
	shrink           bool
}

func (f *runFlags) flagSet() *flag.FlagSet {
	fs := newFlagSet("run")
	f.shape.register(fs)
	fs.Var(&f.seed, "seed", "first `seed` S (random when omitted, and always printed)")
	fs.Var((*countFlag)(&f.seeds), "seeds", "`N` seeds in the sweep (across all shards)")
	fs.IntVar(&f.workers, "workers", defaultWorkers(), "seeds run in parallel")
	fs.Var(&f.shard, "shard", "run shard `i/n` (0-based): the seeds where (seed-first) % n == i")
	fs.BoolVar(&f.checkDeterminism, "check-determinism", false, "run every seed twice and compare trace hashes")
	fs.StringVar(&f.save, "save", defaultSaveDir, "directory for shrunk failing scenarios")
	fs.BoolVar(&f.json, "json", false, "write one JSON object on stdout and nothing else there")
	fs.IntVar(&f.maxFailures, "max-failures", 1, "stop after this many failures in seed order (0: no limit)")
	fs.BoolVar(&f.shrink, "shrink", true, "shrink each failure and save it under -save")
	return fs
}

func cmdRun(e env, args []string) int {
	f := runFlags{seeds: defaultSeeds}
	fs := f.flagSet()
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagFailure(e, "run", fs, err)
	}
	if len(pos) > 0 {
		return usageError(e, "run", fmt.Sprintf("unexpected argument %q", pos[0]))
	}
	cfg, err := f.shape.config()
	if err != nil {
		return usageError(e, "run", err.Error())
	}
	if err := checkWorkers(f.workers); err != nil {
		return usageError(e, "run", err.Error())
	}
	switch {
	case f.seeds < 1 || f.seeds > maxSeedsPerRun:
		return usageError(e, "run", fmt.Sprintf("invalid value %d for flag -seeds: want 1..%d", f.seeds, uint64(maxSeedsPerRun)))
	case f.maxFailures < 0:
		return usageError(e, "run", fmt.Sprintf("invalid value %d for flag -max-failures: want 0 (no limit) or more", f.maxFailures))
	case f.shard.n > 0 && !f.seed.set:
		return usageError(e, "run", "flag -shard needs -seed, so that every shard splits the same seed range")
	}
	random := !f.seed.set
	first := f.seed.v
	if random {
		first = randomSeed()
	}
	sp := sweepSpec{
		first: first, count: f.seeds, shard: f.shard, cfg: cfg,
		workers: f.workers, maxFailures: f.maxFailures, checkDeterminism: f.checkDeterminism,
		watchdog: f.shape.watchdog,
	}
	log := e.stdout
	if f.json {
		log = e.stderr
	}
	// Listen for an interrupt before saying the sweep has started: a
	// signal sent as soon as the start line shows (a script, a test, a
	// quick Ctrl-C) would otherwise kill the process before any summary.
	stop, release := notifyInterrupt(e, "run")
	defer release()
	fmt.Fprintln(log, startLine(sp, random))

	bar := newProgress(e.stderr, !f.json, int64(sp.seeds()))
	sp.progress = bar.set
	sp.stop = stop
	sp.found = func(fl *failure, i int) {
		if f.shrink {
			shrinkFailure(fl, f.save, stop)
		}
		if f.json {
			fmt.Fprintln(e.stderr, foundLine(fl, i))
			return
		}
		bar.clear()
		writeReport(e.stdout, fl, cfg, i)
	}
	start := time.Now()
	t := sweep(sp)
	wall := time.Since(start)
	bar.finish()
	if t.err != nil {
		fmt.Fprintf(e.stderr, "syncsim run: %s\n", oneLine(t.err.Error()))
		return exitUsage
	}
	if f.json {
		if err := writeJSON(e.stdout, runSummaryJSON(sp, t, wall)); err != nil {
			fmt.Fprintf(e.stderr, "syncsim run: %v\n", err)
			return exitUsage
		}
	} else {
		fmt.Fprintln(e.stdout, summaryLine(sp, t, wall))
	}
	switch {
	case t.interrupted:
		return exitInterrupted
	case len(t.failures) > 0:
		return exitFail
	}
	return exitOK
}

// foundLine is the stderr line for a failure found under -json, where
// stdout holds only the final object.
func foundLine(f *failure, i int) string {
	s := fmt.Sprintf("syncsim: failure %d: seed %d, property %s", i, f.seed, f.property)
	if f.file != "" {
		s += "; saved " + f.file
	}
	return s
}

// randomSeed picks the first seed when -seed is omitted: the only random
// choice in syncsim, and it is always printed so that the run repeats.
func randomSeed() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return uint64(time.Now().UnixNano())%randomSeedBound + 1
	}
	return binary.LittleEndian.Uint64(b[:])%randomSeedBound + 1
}

// startLine says what the sweep will run and how to run it again.
func startLine(sp sweepSpec, random bool) string {
	s := fmt.Sprintf("syncsim: run %d seeds from %d", sp.seeds(), sp.first)
	if sp.shard.n > 0 {
		s += fmt.Sprintf(" (shard %s of %d)", sp.shard.String(), sp.count)
	}
	if sp.cfg.Bug != "" {
		s += ", bug " + sp.cfg.Bug
	}
	s += fmt.Sprintf(" on %d workers", sp.workers)
	if random {
		s += fmt.Sprintf("; random first seed, repeat with -seed %d", sp.first)
	}
	return s
}
