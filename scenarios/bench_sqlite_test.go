package scenarios

import "testing"

// sqliteConfig is DefaultConfig with both stores on SQLite for every seed:
// the shape of `syncsim run -scheduler sqlite -local sqlite -sqlite-share 0`.
var sqliteConfig = func() Config {
	c := MemoryConfig
	c.Scheduler, c.LocalStore = "sqlite", "sqlite"
	return c
}()

// BenchmarkRunSQLite is one scenario on both SQLite stores through the
// whole harness: what the stores cost a sweep (profile it with
// -cpuprofile to see where).
func BenchmarkRunSQLite(b *testing.B) { benchRun(b, sqliteConfig) }
