package scenarios

import "testing"

// TestDefaultSweepRunsSQLiteStores: the default config sends a share of
// seeds to each SQLite store, independently, and resolves the share so a
// drawn scenario names its stores (and round-trips through its file).
func TestDefaultSweepRunsSQLiteStores(t *testing.T) {
	var sched, local, both int
	const seeds = 2000
	for seed := uint64(1); seed <= seeds; seed++ {
		s := FromSeed(seed, DefaultConfig)
		if s.Config.SQLiteShare != 0 {
			t.Fatalf("seed %d: SQLiteShare left unresolved", seed)
		}
		sq, lq := s.Config.Scheduler == "sqlite", s.Config.LocalStore == "sqlite"
		if sq {
			sched++
		}
		if lq {
			local++
		}
		if sq && lq {
			both++
		}
		if mem := FromSeed(seed, MemoryConfig); mem.Config.Scheduler != "memory" || mem.Config.LocalStore != "" {
			t.Fatalf("seed %d: MemoryConfig drew %q/%q", seed, mem.Config.Scheduler, mem.Config.LocalStore)
		} else if len(mem.Ops) != len(s.Ops) || mem.Profile != s.Profile {
			t.Fatalf("seed %d: the store draw moved the workload or the profile", seed)
		}
	}
	// About seeds/share each; far outside that means the draw is broken.
	share := DefaultConfig.SQLiteShare
	for name, n := range map[string]int{"scheduler": sched, "local": local} {
		if n < seeds/share/3 || n > seeds/share*3 {
			t.Errorf("%s store on SQLite in %d of %d seeds, want about %d", name, n, seeds, seeds/share)
		}
	}
	t.Logf("of %d seeds: scheduler sqlite %d, local sqlite %d, both %d", seeds, sched, local, both)
}
