package scenarios

import (
	"flag"
	"fmt"
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
// A flag given on the command line wins over its environment variable. The
// variables are read when a suite asks (never at init), so a bad value
// fails that suite with a clear error instead of every program that imports
// the package.
var (
	flagSeeds = flag.Int("syncsim.seeds", 0, "seeds per property sweep (0: each suite's default); env SYNCSIM_SEEDS")
	flagSeed  = flag.Uint64("syncsim.seed", 0, "first seed of property sweeps (0: 1); env SYNCSIM_SEED")
	flagSteps = flag.Int("syncsim.steps", 0, "steps per generated scenario, as Steps counts them (0: DefaultConfig.Steps); env SYNCSIM_STEPS")
)

// knob returns the flag's value when set, else the environment twin's,
// else def.
func knob(flagValue uint64, env string, def uint64) (uint64, error) {
	if flagValue != 0 {
		return flagValue, nil
	}
	v, ok := os.LookupEnv(env)
	if !ok || v == "" {
		return def, nil
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("environment variable %s=%q is not a non-negative integer", env, v)
	}
	return n, nil
}

// seedsOr returns -syncsim.seeds (or SYNCSIM_SEEDS), or def when unset.
func seedsOr(def int) (int, error) {
	n, err := knob(uint64(max(*flagSeeds, 0)), "SYNCSIM_SEEDS", uint64(def))
	if n == 0 {
		n = uint64(def)
	}
	return int(n), err
}

// firstSeed returns -syncsim.seed (or SYNCSIM_SEED), default 1.
func firstSeed() (uint64, error) {
	n, err := knob(*flagSeed, "SYNCSIM_SEED", 1)
	if n == 0 {
		n = 1
	}
	return n, err
}

// configWithFlags applies -syncsim.steps (or SYNCSIM_STEPS) to c.
func configWithFlags(c Config) (Config, error) {
	n, err := knob(uint64(max(*flagSteps, 0)), "SYNCSIM_STEPS", 0)
	if n > 0 {
		c.Steps = int(n)
	}
	return c, err
}
