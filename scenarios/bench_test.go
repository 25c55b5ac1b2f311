package scenarios

import (
	"testing"

	"github.com/syncsim/syncsim/scenarios/internal/benchapi"
)

// benchSeeds is the seed ring the run benchmarks cycle through, so one
// benchmark iteration is one default scenario and the mix is stable.
const benchSeeds = 256

func benchScenarios(c Config) []Scenario {
	out := make([]Scenario, benchSeeds)
	for i := range out {
		out[i] = FromSeed(uint64(i+1), c)
	}
	return out
}

// BenchmarkRunDefault is one default scenario (backends drawn, 30 ops, 1 seed
// in 16 on each SQLite store) through the whole harness: SUT, model, trace,
// liveness tail.
func BenchmarkRunDefault(b *testing.B) { benchRun(b, DefaultConfig) }

// benchRun runs the ring of c's scenarios through the whole harness.
func benchRun(b *testing.B, c Config) {
	ss := benchScenarios(c)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := Run(ss[i%len(ss)], RunOptions{TraceKeep: benchapi.TraceKeep}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDirect is the same scenarios applied straight to the SUT (the
// floor of the overhead ratio).
func BenchmarkDirect(b *testing.B) { benchDirect(b, DefaultConfig) }

// benchDirect runs the ring of c's scenarios through the direct runner.
func benchDirect(b *testing.B, c Config) {
	ss := benchScenarios(c)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := directRun(ss[i%len(ss)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunMemory is one scenario of the shape `syncsim bench` rates
// (MemoryConfig: the memory stores only) through the whole harness.
func BenchmarkRunMemory(b *testing.B) { benchRun(b, MemoryConfig) }

// BenchmarkDirectMemory is the floor of BenchmarkRunMemory: the overhead
// ratio `syncsim bench` reports is their quotient.
func BenchmarkDirectMemory(b *testing.B) { benchDirect(b, MemoryConfig) }

func TestRunDirectAllDefaultSeeds(t *testing.T) {
	for seed := uint64(1); seed <= 200; seed++ {
		st, err := directRun(FromSeed(seed, DefaultConfig))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if st.SimDuration <= 0 {
			t.Fatalf("seed %d: no virtual time passed", seed)
		}
	}
}

// BenchmarkRunLong is one 5,000-step scenario: what growth measures.
func BenchmarkRunLong(b *testing.B) {
	c := DefaultConfig
	c.Steps = growthLongSteps
	s := FromSeed(2, c)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(s, RunOptions{TraceKeep: benchapi.TraceKeep}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBenchSweepFigures: a benchmark sweep counts its seeds and events,
// measures CPU, and samples a heap peak (from runtime/metrics, whose name
// a Go release could retire: a zero peak would say so).
func TestBenchSweepFigures(t *testing.T) {
	f, err := benchSweep(40, 2)
	if err != nil {
		t.Fatal(err)
	}
	if f.seeds != 40 || f.events <= 0 || f.cpu <= 0 || f.wall <= 0 {
		t.Errorf("sweep of 40 seeds: seeds %d, events %d, cpu %v, wall %v", f.seeds, f.events, f.cpu, f.wall)
	}
	if f.peakHeap == 0 {
		t.Errorf("no heap peak sampled from %s", heapObjectsMetric)
	}
}
