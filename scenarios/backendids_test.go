package scenarios

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
)

// caseFoldingStore is an intent store keyed case-insensitively (a SQL
// table with a NOCASE collation, say): backends "Main" and "main" share a
// row, and List reports the folded id.
type caseFoldingStore struct{ *scheduler.Memory }

func (s caseFoldingStore) Get(ctx context.Context, backend string) (scheduler.Intent, bool, error) {
	in, ok, err := s.Memory.Get(ctx, strings.ToLower(backend))
	in.Backend = backend
	return in, ok, err
}

func (s caseFoldingStore) Schedule(ctx context.Context, in scheduler.Intent) error {
	in.Backend = strings.ToLower(in.Backend)
	return s.Memory.Schedule(ctx, in)
}

func (s caseFoldingStore) Clear(ctx context.Context, backend string) error {
	return s.Memory.Clear(ctx, strings.ToLower(backend))
}

// TestCaseFoldingStoreIsCaught: the drawn backend ids reach a store that
// folds case (every seed that names two backends "Main" and "main", and
// every mixed-case id, which List reports folded), so Check at its default
// budget reports it; with the labels alone ("b0", "b1") it would pass.
// The probes are off: the intent-store probe, whose ids differ in case too,
// reports this store at its first probing seed, and this test is about what
// the drawn ids reach.
func TestCaseFoldingStoreIsCaught(t *testing.T) {
	rec := &fatalRecorder{TB: t}
	Check(rec, SuiteOptions{noProbes: true, NewStore: func() sim.SchedulerFactory {
		s := caseFoldingStore{scheduler.NewMemory()}
		return func(string) (scheduler.Scheduler, error) { return s, nil }
	}})
	if len(rec.msgs) != 1 {
		t.Fatalf("Check reported %d times, want once: %q", len(rec.msgs), rec.msgs)
	}
	seed := reportedSeed(rec.msgs[0])
	if seed == 0 || FromSeed(seed, DefaultConfig).Config.BackendIDs == "" {
		t.Errorf("the first failing seed (%d) should be one with drawn backend ids:\n%s", seed, firstLines(rec.msgs[0], 12))
	}
	t.Logf("%s", firstLines(rec.msgs[0], 5))
}

// reportedSeed is the seed on the SEED line of a Check report (0: none).
func reportedSeed(report string) uint64 {
	for _, l := range strings.Split(report, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "SEED"); ok {
			seed, _ := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
			return seed
		}
	}
	return 0
}

// TestDrawnBackendIDs: the ids FromSeed draws are valid, print and parse
// back, include a case-folding pair and non-ASCII ones, and leave every
// other draw of the seed alone.
func TestDrawnBackendIDs(t *testing.T) {
	pairs, nonASCII, drawn := 0, 0, 0
	for seed := uint64(1); seed <= 400; seed++ {
		s := FromSeed(seed, DefaultConfig)
		if s.Config.BackendIDs == "" {
			continue
		}
		drawn++
		if err := sim.ValidBackendIDs(s.Config.backendIDs(), s.Config.Backends); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		back, err := Parse(Format(s))
		if err != nil || back.Config != s.Config {
			t.Fatalf("seed %d: ids=%s does not round-trip: %v", seed, s.Config.BackendIDs, err)
		}
		if strings.HasPrefix(s.Config.BackendIDs, "Main,main") {
			pairs++
		}
		if strings.ContainsFunc(s.Config.BackendIDs, func(r rune) bool { return r > 0x7f }) {
			nonASCII++
		}
		preset := DefaultConfig
		preset.BackendIDs = "x,y"
		other := FromSeed(seed, preset)
		if body(Format(other)) != body(Format(s)) {
			t.Fatalf("seed %d: the drawn ids changed the profile or the ops", seed)
		}
	}
	if drawn == 0 || pairs == 0 || nonASCII == 0 {
		t.Errorf("in 400 seeds: %d drew ids, %d a case-folding pair, %d non-ASCII ones; want each", drawn, pairs, nonASCII)
	}
}

// body is a scenario file without its run line.
func body(file string) string {
	_, rest, _ := strings.Cut(file, "\n")
	return rest
}
