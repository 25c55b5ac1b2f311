package schedulertest

import (
	"time"

	"github.com/syncsim/syncsim/scheduler"
)

// base is a fixed instant the checks build intents from: no wall clock, so
// a failing check prints the same values every run.
var base = time.Date(2025, 3, 1, 12, 0, 0, 123456789, time.UTC)

// intent builds a plain intent for backend at the given attempt.
func intent(backend string, attempt int) scheduler.Intent {
	return scheduler.Intent{Backend: backend, Attempt: attempt, NotBefore: base.Add(time.Duration(attempt) * time.Second)}
}

// checkGetEmpty: no intent is not an error (SPEC 1.3 get → undefined).
func checkGetEmpty(c *checker) {
	c.expect("empty store", "a", nil)
}

func checkScheduleThenGet(c *checker) {
	in := intent("a", 1)
	if c.schedule(in) {
		c.expect("after Schedule", "a", &in)
	}
}

// checkUpsertReplaces: one intent per backend; the second Schedule wins
// whole, including optional fields going from present to absent.
func checkUpsertReplaces(c *checker) {
	first := intent("a", 1)
	first.RuntimeID = scheduler.Ptr("r1")
	first.TargetCursor = scheduler.Ptr(scheduler.AtPath(3, "/x"))
	second := intent("a", 2)
	if c.schedule(first) && c.schedule(second) {
		c.expect("after two Schedules", "a", &second)
	}
	// Replaced whatever the times and attempts: a host may write an
	// intent of its own, due earlier and at any attempt (SPEC 4), and the
	// store is a table, not a queue that keeps the latest due.
	earlier := scheduler.Intent{Backend: "a", Attempt: 1, NotBefore: base.Add(-time.Hour), RuntimeID: scheduler.Ptr("r2")}
	if c.schedule(earlier) {
		c.expect("after a Schedule due earlier, with a lower attempt", "a", &earlier)
	}
	if l, ok := c.lister(); ok {
		got, err := l.List(c.ctx)
		if err != nil {
			c.errorf("List: %v", err)
		} else if len(got) != 1 {
			c.errorf("List after upserting one backend twice returned %d intents, want 1", len(got))
		}
	}
}

// checkClearIdempotent: clearing an unknown backend and clearing twice both
// succeed (SPEC 1.3: the library clears on complete and lost regardless).
func checkClearIdempotent(c *checker) {
	c.clear("never-scheduled")
	c.expect("Clear of unknown backend", "never-scheduled", nil)
	in := intent("a", 1)
	if c.schedule(in) {
		c.clear("a")
		c.expect("after Clear", "a", nil)
		c.clear("a")
		c.expect("after second Clear", "a", nil)
	}
	if c.schedule(in) {
		c.expect("Schedule after Clear", "a", &in)
	}
}
