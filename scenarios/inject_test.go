package scenarios

import (
	"math/rand/v2"
	"testing"

	"github.com/syncsim/syncsim/faults"
)

// injectSweepSeeds bounds TestInjectSweep (a few hundred runs per store).
const injectSweepSeeds = 300

// TestInjectSweep runs generated scenarios with armed faults spliced in
// (about one op in three, any armable kind at any of its sites) and some
// top-level execs staging their writes, with a scheduler and without one: the model must agree with the SUT on every
// step, injected faults included, and every property must hold.
func TestInjectSweep(t *testing.T) {
	var armable []faults.Kind
	for _, k := range faults.Kinds() {
		if len(faults.ArmSites(k)) > 0 {
			armable = append(armable, k)
		}
	}
	for _, sch := range []string{"memory", schedulerNone} {
		c := DefaultConfig
		c.Scheduler = sch
		for seed := uint64(1); seed <= injectSweepSeeds; seed++ {
			s := FromSeed(seed, c)
			r := rand.New(rand.NewPCG(seed, 0x1a))
			var ops []Op
			for _, o := range s.Ops {
				if r.IntN(3) == 0 {
					k := armable[r.IntN(len(armable))]
					sites := faults.ArmSites(k)
					op := Op{Kind: OpInject, Backend: r.IntN(s.Config.Backends), Fault: k, On: sites[r.IntN(len(sites))]}
					if op.On.Streamed() {
						op.After = r.IntN(4)
					}
					ops = append(ops, op)
				}
				if o.Kind == OpExec && r.IntN(4) == 0 {
					o.Staged = true
				}
				ops = append(ops, o)
			}
			s.Ops = ops
			res, err := Run(s, RunOptions{TraceKeep: 1})
			if err != nil {
				t.Fatal(err)
			}
			if res.Violation != nil {
				t.Fatalf("scheduler=%s seed %d: %v\n%s", sch, seed, res.Violation, Format(s))
			}
		}
	}
}
