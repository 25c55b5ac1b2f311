package scenarios

import (
	"testing"

	"github.com/syncsim/syncsim/scenarios/internal/benchapi"
)

func BenchmarkTmpGrowthLong(b *testing.B) {
	c := MemoryConfig
	c.Steps = growthLongSteps
	var ss []Scenario
	for seed := uint64(1); len(ss) < 3; seed++ {
		s := FromSeed(seed, c)
		res, _ := Run(s, RunOptions{TraceKeep: benchapi.TraceKeep})
		if res.Violation == nil {
			ss = append(ss, s)
		}
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		Run(ss[i%len(ss)], RunOptions{TraceKeep: benchapi.TraceKeep})
	}
}
