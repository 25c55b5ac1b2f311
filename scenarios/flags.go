package scenarios

import (
	"flag"
	"os"
	"strconv"
)

// Flags lengthen or pin the property suites from `go test`. Each has an
// environment twin so CI can set it without touching the command line:
//
//	go test ./scenarios -syncsim.seeds=20000          SYNCSIM_SEEDS=20000
//	go test ./scenarios -syncsim.seed=77              SYNCSIM_SEED=77
//	go test ./scenarios -syncsim.steps=200            SYNCSIM_STEPS=200
//
// A flag given on the command line wins over its environment variable.
var (
	flagSeeds = flag.Int("syncsim.seeds", envInt("SYNCSIM_SEEDS", 0),
		"seeds per property sweep (0: each suite's default); env SYNCSIM_SEEDS")
	flagSeed = flag.Uint64("syncsim.seed", uint64(envInt("SYNCSIM_SEED", 1)),
		"first seed of property sweeps; env SYNCSIM_SEED")
	flagSteps = flag.Int("syncsim.steps", envInt("SYNCSIM_STEPS", 0),
		"ops per generated scenario (0: DefaultConfig.Steps); env SYNCSIM_STEPS")
)

func envInt(name string, def int) int {
	v, ok := os.LookupEnv(name)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		// A bad value must not silently shrink a CI sweep to its default.
		panic("syncsim: environment variable " + name + "=" + strconv.Quote(v) + " is not a non-negative integer")
	}
	return n
}

// seedsOr returns the -syncsim.seeds value, or def when it is unset.
func seedsOr(def int) int {
	if *flagSeeds > 0 {
		return *flagSeeds
	}
	return def
}

// configWithFlags applies -syncsim.steps to c.
func configWithFlags(c Config) Config {
	if *flagSteps > 0 {
		c.Steps = *flagSteps
	}
	return c
}
