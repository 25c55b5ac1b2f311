package schedulertest

// checkLister requires List unless Options.NoList says the store goes
// without: a host cannot set its alarm from a store it cannot list, and
// without this check the first sign would be a failure deep in a
// simulation (or a stranded retry in production).
func checkLister(c *checker) {
	if _, ok := c.lister(); ok || c.opts.NoList {
		return
	}
	c.errorf("%T does not implement scheduler.Lister (List(ctx) ([]scheduler.Intent, error), sorted by backend): "+
		"the simulated host (scenarios.Check) and scheduler.NewWaker list the intents to set the alarm; "+
		"add List, or declare schedulertest.Options{NoList: true} if the store is never used by a host", c.s)
}
