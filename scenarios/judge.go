package scenarios

import (
	"time"

	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/sim/oracle"
)

// runJudge is one run's judge, built here and handed to the driver
// (sim.Config.Judge): the checkers of the selected properties (package
// sim/oracle), then the user's own (RunOptions.NewCheckers).
type runJudge struct {
	builtin *oracle.Judge // the selected properties' checkers (their costs)
	judge   history.Judge // builtin, then the user's
	judged  func(property string) bool
}

// newRunJudge builds the judge of the named properties (nil: every one)
// for one run: a checker keeps state across a run's events, so every run
// gets fresh ones. clock, when set, times the built-in checkers' calls
// (oracle.Judge.Costing).
func newRunJudge(properties []string, user []oracle.Checker, clock func() time.Duration) (runJudge, error) {
	want, err := oracle.Selection(properties)
	if err != nil {
		return runJudge{}, err
	}
	builtin, err := oracle.Select(properties)
	if err != nil {
		return runJudge{}, err
	}
	if clock != nil {
		builtin.Costing(clock)
	}
	rj := runJudge{builtin: builtin, judge: builtin}
	if len(user) > 0 {
		rj.judge = oracle.Compose(append([]oracle.Checker{builtin}, user...)...)
	}
	// A user's checker's property is not in the registry, and is always
	// reported; a registered one is when selected.
	rj.judged = func(p string) bool { return want(p) || oracle.Lookup(p) == nil }
	return rj, nil
}

// judge builds s's judge under o (Config.Properties, RunOptions.NewCheckers
// and CheckerClock) into cfg, and returns it for its costs.
func judge(cfg *sim.Config, s Scenario, o RunOptions) (runJudge, error) {
	var user []oracle.Checker
	if o.NewCheckers != nil {
		user = o.NewCheckers()
	}
	rj, err := newRunJudge(s.Config.properties(), user, o.CheckerClock)
	if err != nil {
		return runJudge{}, err
	}
	cfg.Judge, cfg.Judged = rj.judge, rj.judged
	return rj, nil
}

// costs returns what each built-in checker spent, when they were timed.
func (rj runJudge) costs(timed bool) []oracle.Cost {
	if !timed || rj.builtin == nil {
		return nil
	}
	return rj.builtin.Costs()
}
