/*
Syncsim sweeps, replays, shrinks and explains deterministic simulation runs
of the durable sync-retry system. One uint64 seed decides a whole run; the
same seed on the same code gives a byte-identical trace.

Usage:

	syncsim run [flags]                      sweep seeds on all cores
	syncsim replay FILE | -seed S [flags]    one run with its full trace
	syncsim shrink FILE | -seed S [-o OUT]   shrink a failure to a short file
	syncsim explain FILE | -seed S -html OUT.html
	syncsim hunt [-bug NAME|all] [-seeds N] [-windows K -seed S]
	                                         find and shrink the planted bugs
	syncsim merge [-json] SHARD.json...      combine the shards of one sweep
	syncsim bench [-quick] [-benchfmt] | -strategies | -by-property
	                                         measure the harness, the strategies, the checkers
	syncsim bugs                             the planted-bug catalogue
	syncsim help [SUBCOMMAND]                help; also -h on any subcommand

Flags and FILE arguments may come in any order ("--" ends the flags).

# Exit codes

	0  every property held (and every file expectation was met)
	1  a property failed, or a scenario file's expectation was not met
	2  a usage or input error: an unknown subcommand or flag, a bad value
	   (-shard 3/2, -bug nope), a missing or unreadable file, a broken
	   scenario file (the message names file:line). The reason is one line
	   on stderr.
	130  run only: SIGINT or SIGTERM ended the sweep; what ran is
	   summarised and every failure found is saved.

With -json a subcommand writes exactly one JSON object on stdout and
nothing else there; everything else goes to stderr. A usage or input error
under -json prints {"error": REASON, "exit_code": 2}.

# Flags that shape a scenario

run, replay, shrink, explain and hunt share them; a report's replay line
repeats every one of them that differs from the default.

	-steps N           steps per generated scenario (default 30,
	                   scenarios.DefaultConfig.Steps; each member of a
	                   group is a step, as in every count syncsim prints)
	-backends K        container backends (default 0: drawn per seed, two
	                   in most seeds, one or three to sixteen in the rest)
	-scheduler NAME    intent store: memory (default), sqlite, or none (a
	                   workspace without a scheduler, SPEC 3.3 step 1)
	-local NAME        workspace local store (files and cursors): memory
	                   (default) or sqlite, reopened and checked at every
	                   host restart
	-bug NAME          switch on a planted bug (see syncsim bugs)
	-strategy NAME     how each seed's scheduling strategy is chosen:
	                   uniform (a uniform walk), pct (probabilistic
	                   concurrency testing, depth drawn 1..3) or mix (the
	                   default: one seed in eight uniform, the rest PCT).
	                   The trace header names the seed's strategy.

With a scenario FILE (replay, shrink, explain) the file carries its own
config: -steps, -backends, -scheduler, -local and -strategy are rejected, and -bug replaces the
file's bug (replay then does not compare the file's expectation, which was
written for the file's own bug).

# syncsim run

Sweeps seeds first, first+1, ... on -workers goroutines; as each failure is
found (in seed order) shrinks it, saves it under -save and prints its
report; ends with a one-line summary of measured figures. SIGINT or SIGTERM
stops at a seed boundary (the seeds in flight finish), still prints the
summary (or the -json object, "interrupted": true) and exits 130; a second
signal quits at once.

	syncsim: 10000 seeds (first 1), 10000 passed, 0 failed, 254263 steps run, 3.3M events, 383.8 h simulated in 8.0s (1258 scenarios/s, 410k events/s)

Flags, besides the shape flags:

	-seeds N            seeds in the sweep, across all shards (default 10000:
	                    about 5 s on 2 cores)
	-seed S             first seed; when omitted a random one below 10^9 is
	                    drawn (crypto/rand; the only random choice syncsim
	                    makes) and printed with the line that repeats it
	-workers W          seeds run in parallel (default GOMAXPROCS)
	-shard i/n          run shard i (0-based) of n: the seeds whose offset
	                    (seed-first) % n == i. Every shard must get the same
	                    -seed and -seeds, so -shard requires -seed.
	-check-determinism  run every seed twice and compare trace hashes; on a
	                    mismatch both sides are rerun with full traces and the
	                    first differing line is reported as a failure of the
	                    property "determinism" (not shrunk)
	-max-failures N     stop after N failures in seed order (default 1; 0: no
	                    limit)
	-shrink             shrink each failure and save it (default true;
	                    -shrink=false reports the unshrunk failure only)
	-save DIR           where shrunk failures are written as corpus files
	                    (default syncsim-failures)
	-json               one JSON object on stdout (see below)

Results never depend on -workers: seeds are committed in seed order, so the
sweep always covers a prefix of the seeds, stops at the same seed, and lists
failures sorted by seed. Memory does not grow with -seeds: each run keeps
only the last 64 trace lines (the hash still covers all of them), seeds are
streamed, and a passing seed leaves only its counts behind.

A progress bar is drawn on stderr when stderr is a terminal and -json is off.

A failure report has a fixed shape and ends in the lines to paste:

	--- FAIL 1: seed 4, property alarm
	SEED      4
	CONFIG    steps=30 backends=2 scheduler=memory bug=single-alarm
	PROFILE   restart=0.3 lost-identity=0.3 ...
	PROPERTY  alarm at +34.2s
	DETAIL
	  alarm +35.2s is later than intent b0 due at +34.6s
	LAST TRACE LINES (20 of 182 events)
	  ...
	SHRUNK    syncsim-failures/alarm-single-alarm-e4eb3fcbf7c6.txt: 30 -> 2 steps in 6ms (42 runs)
	REPLAY
	  syncsim replay syncsim-failures/alarm-single-alarm-e4eb3fcbf7c6.txt
	  syncsim replay -seed 4 -steps 30 -bug single-alarm
	  cp syncsim-failures/alarm-single-alarm-e4eb3fcbf7c6.txt scenarios/testdata/corpus/ && go test ./scenarios -run 'TestCorpus/alarm-single-alarm-e4eb3fcbf7c6$'

run -json prints seeds (run: passed + failed), first_seed, seeds_planned,
shard, bug, backends, scheduler, scenario_steps, passed, failed,
stopped_early, steps, events, sim_seconds, wall_seconds, scenarios_per_sec,
events_per_sec, workers, and failures: [{seed, property, detail, profile,
file, steps_before, steps_after, shrink_seconds, shrink_error, save_error,
replay}].

# Sharding

A sweep too big for one machine is split into n jobs that run

	syncsim run -seed S -seeds N -shard i/n -json > shard-i.json

for i = 0..n-1 (a CI job matrix, Kubernetes indexed jobs). The shards are
disjoint and together cover exactly the seeds of the unsharded sweep. With
-max-failures each shard stops on its own.

	syncsim merge [-json] shard-*.json

checks that the summaries are one sweep's disjoint, complete split (the same
first_seed, seeds_total and shape; each shard i/n exactly once; every
failure inside its own shard) and exits 2 naming the problem otherwise. It
sums the counts (seeds, passed, failed, steps, events, sim_seconds,
wall_seconds), lists the failures by seed, and recomputes the rates over the
summed shard time. Exit 1 when any shard failed or did not run all its
seeds (complete: false; a stderr line per such shard), else 0.
.github/workflows/nightly.yml runs the split and the merge.

# syncsim replay

	syncsim replay FILE [-record OUT]
	syncsim replay -seed S [-steps N -backends K -scheduler X -bug B] [-record OUT]

Runs once with the full trace and prints it on stdout; the last line is
"trace-hash <hex> lines=<n>", the same on every run. The verdict goes to
stderr. For a FILE, each case's Observe output is compared with the
expected block under its "----" line: exit 1 with a (-want +got) diff when
they differ, exit 0 when they match (a file may expect a violation). A case
without an expected block, and -seed, exit 1 when a property fails. -json
prints {cases: [{pos, seed, trace_hash, violation, expectation_met, diff,
trace}], failed}. -record OUT also writes the scenario to OUT with every
group's schedule as it ran ("schedule exec.b0*8 tick"): a file that replays
this very run whatever the seed's strategy.

# syncsim shrink

	syncsim shrink FILE -o OUT
	syncsim shrink -seed S [shape flags] [-o OUT]

Shrinks the first failing case (keeping -property, default the one it
violates) with scenarios.Shrink, writes the result as a scenario file with
its expectation to OUT, or without -o under -save DIR (default
syncsim-failures) by its corpus name, and prints steps before and after and
the time spent. Exit 0 when the file is written; 2 when the input holds
every property (nothing to shrink). -json prints {source, property,
steps_before, steps_after, shrink_seconds, runs, budget_hit, file}.

# syncsim explain

	syncsim explain FILE -html OUT.html
	syncsim explain -seed S [shape flags] -html OUT.html

Runs the first case once with the full trace and writes one self-contained
HTML timeline (no network fetches): a lane per backend and one for the
host, virtual time across, the violation marked. The page is written
either way; the exit code is replay -seed's: 1 when a property was violated,
0 when every property held.

# syncsim hunt

	syncsim hunt [-bug NAME|all] [-seeds N] [-windows K] [-seed S]
	             [-strategy X] [-workers W] [-save DIR] [-json]

For each planted bug (default all), sweeps each of K disjoint windows of N
seeds (default one window of 2000) until its first failure: window w runs
seeds S+w*N onwards. S defaults to 1 with one window; with more and no
-seed it is drawn at random and printed with the line that repeats the hunt.
The first failure found is shrunk. With one window the table reports found,
seeds to the first failure, property, steps before and after, shrink time
and, with -save, the file; with several, per bug the median and worst seeds
to the first failure over the windows (a miss counts as N+1), the windows
missed and every window's figure. Exit 1 when any bug is missed in any
window. -json prints {seeds, windows, first_seed, strategy, found, total,
wall_seconds, bugs: [{bug, class, found, seeds_to_first_failure,
window_seeds, median_seeds, worst_seeds, windows_missed, seeds_run,
property, detail, steps_before, steps_after, shrink_seconds, shrink_runs,
file, replay, wall_seconds}]} (found: in every window).

# syncsim bench

	syncsim bench [-json | -benchfmt] [-quick] [-rounds N] [-round-seeds N] [-seed S] [-seeds N]
	syncsim bench -strategies [-seeds N] [-seed S] [-bug B] [-json]
	syncsim bench -by-property [-seeds N] [-seed S] [-json]

Measures the harness against its targets (docs/performance.md) in
interleaved rounds: every round runs seeds S.. (-round-seeds, default 1000)
once through each arm in turn, after one unmeasured warm-up round, for N
rounds (default 7, at least 5). The arms: default (DefaultConfig as
`syncsim run` sweeps it, SQLite share 1 in 16 per store included), memory
(MemoryConfig, the memory stores only), none (the memory arm judging no
property, as -properties none: the oracle's checkers off, while what the
driver still judges itself runs unreported), direct (the memory arm's
scenarios applied straight to the system under test: the floor) and double
(the memory arm run twice, as -check-determinism does). Every rate is
scenarios per CPU second of the process (getrusage: user+sys of every
thread, GC included), so per core, printed as the median of the rounds with
their range (min..max). The quotients are taken round by round:
overhead_ratio (memory ÷ direct), split into oracle_cost_ratio (memory ÷
none) and driver_cost_ratio (none ÷ direct), and determinism_cost_ratio
(double ÷ memory). Then it measures time driven through clock.Mock, growth
with scenario length, and the heap over a sweep of -seeds seeds (default
100,000) against one of a tenth.

-benchfmt runs only the rounds and prints them in the Go benchmark format,
one line per arm and round (BenchmarkSweep/ARM-GOMAXPROCS, ns/op of CPU per
scenario, scenarios/s, B/op, allocs/op), so that benchstat compares two
builds:

	syncsim-old bench -benchfmt > old.txt
	syncsim bench -benchfmt > new.txt
	benchstat old.txt new.txt

(benchstat gives a confidence interval from 6 samples on: the default 7
rounds give one, -quick's 5 do not.)

-json prints one object: the medians under the figures' names, each
target's value with its min and max, and every arm with every round.

With -strategies it instead runs N seeds (default 2000) from S for every
planted bug (or B) under each of uniform, pct and mix and reports, per bug
and strategy, the failing seeds, the first, the CPU time and bugs found per
CPU minute (a failing seed counts as one find).

With -by-property it instead runs N default scenarios (default 2000) from S
one at a time with every checker's calls timed, and reports each checker's
CPU per scenario, calls per scenario and share of the run's CPU, and lists
the properties still judged inside the driver.

# syncsim bugs

Prints the planted-bug catalogue, one "name<TAB>class" line per bug in
catalogue order (-json: {bugs: [{name, class}]}).
*/
package main
