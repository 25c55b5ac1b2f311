package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/syncsim/syncsim/scenarios"
	"github.com/syncsim/syncsim/sim"
)

// Limits on flag values: every knob has a named bound (STYLE 13).
const (
	maxBackends = 64
	maxSteps    = 1_000_000
	maxWorkers  = 1024
	maxWatchdog = time.Hour
)

// newFlagSet returns a flag set that reports errors to its caller only: the
// flag package's multi-line usage dump is replaced by one line from
// parseFlags.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// errHelp is returned by parseFlags for -h; the caller prints help.
var errHelp = flag.ErrHelp

// parseFlags parses args with flags and positional arguments in any order
// (`syncsim shrink FILE -o OUT` as well as `-o OUT FILE`); "--" ends flags.
// It returns the positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// flagFailure turns a parse error into the exit code: help for -h, one
// line otherwise.
func flagFailure(e env, sub string, fs *flag.FlagSet, err error) int {
	if errors.Is(err, errHelp) {
		writeCommandHelp(e.stdout, sub, fs)
		return exitOK
	}
	return usageError(e, sub, err.Error())
}

// shapeFlags are the flags that shape a scenario drawn from a seed. run,
// replay, shrink, explain and hunt share them so that the replay line a
// report prints reproduces the scenario exactly.
type shapeFlags struct {
	steps     int
	backends  int
	scheduler string
	local     string
	bug       string
	// sqliteShare is Config.SQLiteShare: 1 seed in N swaps each memory
	// store for SQLite.
	sqliteShare int
	// watchdog is not part of the scenario: how long a run may make no
	// progress before it is reported as property hang.
	watchdog time.Duration
	strategy string
	// properties is Config.Properties: the properties judged, by name.
	properties string
}

func (f *shapeFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&f.steps, "steps", scenarios.DefaultConfig.Steps, "steps per generated scenario (ops, a group's members each counted)")
	fs.IntVar(&f.backends, "backends", scenarios.DefaultConfig.Backends, "container backends per scenario (0: drawn per seed, two in most, one to sixteen in the rest)")
	fs.StringVar(&f.scheduler, "scheduler", scenarios.DefaultConfig.Scheduler, "intent store: memory, sqlite or none (a workspace without a scheduler)")
	fs.StringVar(&f.local, "local", "memory", "workspace local store (files and cursors): memory or sqlite")
	fs.StringVar(&f.bug, "bug", "", "planted bug to switch on (see syncsim bugs)")
	fs.IntVar(&f.sqliteShare, "sqlite-share", scenarios.DefaultConfig.SQLiteShare, "1 seed in N runs each memory store (-scheduler, -local) on SQLite instead, and with it 1 in 32 runs without a scheduler; 0 never")
	fs.DurationVar(&f.watchdog, "watchdog", sim.DefaultWatchdog, "wall time a run may make no progress before it is reported as property hang, or finish no operation while its actors switch before it is reported as livelock")
	fs.StringVar(&f.strategy, "strategy", sim.StrategyMix, "scheduling strategy per seed: uniform, pct or mix")
	fs.StringVar(&f.properties, "properties", "", "judge only these properties, comma-separated (default: every one; see syncsim properties)")
}

// config checks the values and returns the scenario config they describe.
func (f *shapeFlags) config() (scenarios.Config, error) {
	c := scenarios.DefaultConfig
	if f.steps < 1 || f.steps > maxSteps {
		return c, fmt.Errorf("invalid value %d for flag -steps: want 1..%d", f.steps, maxSteps)
	}
	if f.backends < 0 || f.backends > maxBackends {
		return c, fmt.Errorf("invalid value %d for flag -backends: want 0 (drawn per seed) or 1..%d", f.backends, maxBackends)
	}
	if f.scheduler != "memory" && f.scheduler != "sqlite" && f.scheduler != "none" {
		return c, fmt.Errorf("invalid value %q for flag -scheduler: want memory, sqlite or none", f.scheduler)
	}
	if f.watchdog <= 0 || f.watchdog > maxWatchdog {
		return c, fmt.Errorf("invalid value %s for flag -watchdog: want a duration in (0, %s]", f.watchdog, maxWatchdog)
	}
	if f.local != "memory" && f.local != "sqlite" {
		return c, fmt.Errorf("invalid value %q for flag -local: want memory or sqlite", f.local)
	}
	if f.bug != "" {
		if _, ok := scenarios.BugByName(f.bug); !ok {
			return c, fmt.Errorf("unknown bug %q for flag -bug (see syncsim bugs)", f.bug)
		}
	}
	if f.sqliteShare < 0 {
		return c, fmt.Errorf("invalid value %d for flag -sqlite-share: want 0 (never) or more", f.sqliteShare)
	}
	if _, err := sim.DrawStrategy(f.strategy, 0); err != nil {
		return c, fmt.Errorf("invalid value %q for flag -strategy: want uniform, pct or mix", f.strategy)
	}
	if err := scenarios.ValidProperties(f.properties); err != nil {
		return c, fmt.Errorf("invalid value %q for flag -properties: %v", f.properties, err)
	}
	c.Steps, c.Backends, c.Scheduler, c.Bug, c.SQLiteShare = f.steps, f.backends, f.scheduler, f.bug, f.sqliteShare
	c.Properties = f.properties
	if f.strategy != sim.StrategyMix {
		c.Strategy = f.strategy
	}
	if f.local == "sqlite" {
		c.LocalStore = f.local
	}
	return c, nil
}

// replayLine is the command that regenerates the scenario of seed under c:
// every flag that shapes it, defaults left out.
func replayLine(seed uint64, c scenarios.Config) string {
	var b strings.Builder
	fmt.Fprintf(&b, "syncsim replay -seed %d -steps %d", seed, c.Steps)
	if c.Backends != 0 { // 0 draws the count from the seed again
		fmt.Fprintf(&b, " -backends %d", c.Backends)
	}
	if c.Bug != "" {
		b.WriteString(" -bug " + c.Bug)
	}
	if c.Scheduler != scenarios.DefaultConfig.Scheduler {
		b.WriteString(" -scheduler " + c.Scheduler)
	}
	if c.LocalStore != "" {
		b.WriteString(" -local " + c.LocalStore)
	}
	if c.Strategy != "" {
		b.WriteString(" -strategy " + c.Strategy)
	}
	if c.Properties != "" {
		b.WriteString(" -properties " + c.Properties)
	}
	return b.String()
}

// seedFlag is a uint64 flag that remembers whether it was given.
type seedFlag struct {
	v   uint64
	set bool
}

func (s *seedFlag) String() string {
	if s == nil || !s.set {
		return ""
	}
	return strconv.FormatUint(s.v, 10)
}

func (s *seedFlag) Set(v string) error {
	n, err := strconv.ParseUint(v, 0, 64)
	if err != nil {
		return errors.New("want an unsigned 64-bit integer")
	}
	s.v, s.set = n, true
	return nil
}

// shardFlag is -shard i/n: this process runs shard i (0-based) of n.
type shardFlag struct {
	i, n uint64
}

func (s *shardFlag) String() string {
	if s == nil || s.n == 0 {
		return "0/1"
	}
	return fmt.Sprintf("%d/%d", s.i, s.n)
}

// maxShards bounds n in -shard i/n.
const maxShards = 1 << 20

func (s *shardFlag) Set(v string) error {
	a, b, ok := strings.Cut(v, "/")
	i, err1 := strconv.ParseUint(a, 10, 64)
	n, err2 := strconv.ParseUint(b, 10, 64)
	switch {
	case !ok || err1 != nil || err2 != nil:
		return errors.New("want i/n, e.g. 0/4")
	case n == 0 || n > maxShards:
		return fmt.Errorf("shard count must be 1..%d", maxShards)
	case i >= n:
		return fmt.Errorf("shard index %d must be below the shard count %d (shards are 0-based)", i, n)
	}
	s.i, s.n = i, n
	return nil
}

// defaultWorkers is one worker per usable CPU.
func defaultWorkers() int { return runtime.GOMAXPROCS(0) }

func checkWorkers(w int) error {
	if w < 1 || w > maxWorkers {
		return fmt.Errorf("invalid value %d for flag -workers: want 1..%d", w, maxWorkers)
	}
	return nil
}

// oneLine folds a multi-line message so that an error stays one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

// countFlag is a uint64 count whose parse error says what is wanted (the
// flag package's own says only "parse error" for -seeds -1).
type countFlag uint64

func newCountFlag(fs *flag.FlagSet, name string, def uint64, usage string) *uint64 {
	v := def
	fs.Var((*countFlag)(&v), name, usage)
	return &v
}

func (c *countFlag) String() string {
	if c == nil {
		return "0"
	}
	return strconv.FormatUint(uint64(*c), 10)
}

func (c *countFlag) Set(v string) error {
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return errors.New("want a whole number of 1 or more")
	}
	*c = countFlag(n)
	return nil
}
