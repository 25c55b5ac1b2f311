package scenarios

import (
	"cmp"
	"testing"

	"github.com/syncsim/syncsim/sim/oracle"
)

// With a checker clock, a run reports what every built-in checker spent,
// one entry per selected checker; without one, nothing.
func TestCheckerCosts(t *testing.T) {
	s := FromSeed(3, MemoryConfig)
	r, err := Run(s, RunOptions{CheckerClock: CheckerTime})
	if err != nil {
		t.Fatal(err)
	}
	checkers := map[string]bool{} // one per family or lone property
	for _, p := range oracle.Registry {
		if p.InOracle() {
			checkers[cmp.Or(p.Family, p.Name)] = true
		}
	}
	if len(r.CheckerCosts) != len(checkers) || len(r.CheckerCosts) == 0 {
		t.Fatalf("expected %d checker costs, got %d", len(checkers), len(r.CheckerCosts))
	}
	calls := 0
	for _, c := range r.CheckerCosts {
		if c.Name == "" || c.CPU < 0 {
			t.Errorf("bad cost %+v", c)
		}
		calls += c.Calls
	}
	if calls == 0 {
		t.Fatal("no checker was called in a whole run")
	}
	plain, err := Run(s, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if plain.CheckerCosts != nil {
		t.Fatal("costs reported without a clock")
	}
	if plain.Hash != r.Hash {
		t.Fatal("costing changed the run's trace")
	}
}
