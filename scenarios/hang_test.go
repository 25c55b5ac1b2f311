package scenarios

import (
	"strings"
	"testing"
	"time"

	"github.com/syncsim/syncsim/sim"
)

// hangBudget is the promise: a hang is reported within it.
const hangBudget = 60 * time.Second

// testWatchdog is the watchdog of tests that replay scenarios known to
// hang (the corpus, the hunt): shorter than the default to keep the suite
// quick, and still far above any step of a healthy run.
const testWatchdog = 3 * time.Second

// watchdogFor is the watchdog a test replays a scenario under: the short
// testWatchdog only where a hang is what the scenario is expected to show.
// Everywhere else it is the default, so that a loaded CI machine stalling a
// healthy run for a few seconds (a big write, an fsync, the scheduler of a
// shared host) cannot pass for a hang.
func watchdogFor(hangExpected bool) time.Duration {
	if hangExpected {
		return testWatchdog
	}
	return sim.DefaultWatchdog
}

// TestCheckReportsABlockingStoreAsHang plugs in a store whose third
// Schedule never returns and requires scenarios.Check, at its default
// watchdog, to report property hang with the seed and the stuck goroutine's
// stack within hangBudget, instead of hanging the test.
func TestCheckReportsABlockingStoreAsHang(t *testing.T) {
	start := time.Now()
	rec := &fatalRecorder{TB: t}
	Check(rec, SuiteOptions{NewStore: func() sim.SchedulerFactory { return BlockingSchedulerFactory(3) }})
	took := time.Since(start)
	if len(rec.msgs) != 1 {
		t.Fatalf("Check reported %d times, want once: %q", len(rec.msgs), rec.msgs)
	}
	msg := rec.msgs[0]
	for _, want := range []string{"PROPERTY  hang", "SEED      1\n", "stopped at the hang of seed 1", "STACKS", "blockingScheduler).Schedule"} {
		if !strings.Contains(msg, want) {
			t.Errorf("Check's report lacks %q:\n%s", want, msg)
		}
	}
	if took > hangBudget {
		t.Errorf("the hang took %s to report, want within %s", took, hangBudget)
	}
	t.Logf("reported in %s:\n%s", took.Round(time.Millisecond), firstLines(msg, 8))
}
