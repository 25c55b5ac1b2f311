package sim

import "github.com/syncsim/syncsim/sim/oracle"

// judged returns c with every property judged (oracle.All): the driver's
// tests check what the run reports, as scenarios.Run builds it.
func judged(c Config) Config {
	c.Judge = oracle.All()
	return c
}
