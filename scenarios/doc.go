// Package scenarios is syncsim's user-facing layer: the scenario language,
// its generator, runner, text format, shrinker and corpus, and the property
// suites (`go test ./scenarios`) with an exported API for checking your own
// intent store inside the whole simulated system.
//
// # Using it
//
//  1. A Scenario is a seed, a Config (backends, intent store, planted bug,
//     backoff, batch budget), a swarm fault Profile and a list of Ops (exec,
//     write, retry, advance, crash, restart, lose-identity, truncate,
//     host-restart, concurrent groups, and inject: one fault armed at the
//     next call of a site). FromSeed draws one (never with inject, staged
//     execs or scheduler "none", which only written scenarios use); Parse
//     reads one from its text form (Format writes it).
//  2. Run executes it on a sim.Host and returns the first Violation (nil if
//     every property held), the trace and its hash. The same scenario gives
//     the same trace, byte for byte. Config.Strategy says how the seed's
//     scheduling strategy is chosen (uniform, pct, mix); a group may carry a
//     written schedule (schedule.go) that it follows whatever the strategy,
//     and RunOptions.RecordSchedules writes the schedules a run took.
//  3. Shrink cuts a failing scenario down while it keeps violating the same
//     property (its groups' schedules recorded first, kept, minimised); WriteCorpusFile saves it under testdata/corpus, where
//     TestCorpus replays it (with -rewrite to regenerate expectations).
//  4. Sweep and Check run many seeds with your store plugged in
//     (SuiteOptions.NewStore): see ExampleSweep.
//
// # Suites
//
// TestSweep (reachability of every fault kind, retry status and exec outcome;
// -v prints the table), TestStateMachine (rapid), TestDeterminism (200 seeds
// under GOMAXPROCS 1 and 8, and a golden digest that the -race build must
// match), TestCorpus, TestHunt… (every planted bug found and shrunk to within
// one step of its hand-written scenario), TestPluggedIn… and
// TestCheckReportsStoreErrors (broken stores plugged in as a user would are
// caught — single alarm, forgetful, and three that fail by themselves,
// reported as store-error — and the correct memory and SQLite stores pass
// Check at its default budget). Flags -syncsim.seeds, -syncsim.seed
// and -syncsim.steps (env SYNCSIM_SEEDS, SYNCSIM_SEED, SYNCSIM_STEPS) deepen
// them.
package scenarios
