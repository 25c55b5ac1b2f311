package schedulertest

// checkDurable applies only to implementations whose Instance offers
// Reopen: after a reopen (a host restart) every Schedule and Clear that
// returned must be visible, exactly, and nothing else.
func checkDurable(c *checker) {
	if c.inst.Reopen == nil {
		return // not declared durable
	}
	cases := roundTripCases()
	for _, in := range cases {
		c.schedule(in)
	}
	replaced := intent(cases[0].Backend, 9)
	c.schedule(replaced)
	cleared := cases[1].Backend
	c.clear(cleared)

	s, err := c.inst.Reopen()
	if err != nil {
		c.errorf("Reopen: %v", err)
		return
	}
	c.s = s
	c.expect("after reopen", replaced.Backend, &replaced)
	c.expect("after reopen", cleared, nil)
	for _, in := range cases[2:] {
		c.expect("after reopen", in.Backend, &in)
	}
	if c.schedule(intent("after-reopen", 1)) {
		want := intent("after-reopen", 1)
		c.expect("Schedule after reopen", "after-reopen", &want)
	}
	if l, ok := c.lister(); ok {
		if got, err := l.List(c.ctx); err != nil {
			c.errorf("List after reopen: %v", err)
		} else if want := len(cases) - 1 + 1; len(got) != want {
			c.errorf("List after reopen returned %d intents, want %d", len(got), want)
		}
	}
}
