package scenarios

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
)

// reportRecorder is a testing.TB that records Fatal and Logf messages, so a
// test can read what Check reports and logs.
type reportRecorder struct {
	fatalRecorder
	logs []string
}

func (r *reportRecorder) Logf(format string, a ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, a...))
}

// amnesiac is a user's store that forgets at every host start: a distinct
// type, so the report can be seen to name it.
type amnesiac struct{ *scheduler.Memory }

func newAmnesiac() sim.SchedulerFactory {
	return func(string) (scheduler.Scheduler, error) { return amnesiac{scheduler.NewMemory()}, nil }
}

// replayRe picks the go test line out of a Check report.
var replayRe = regexp.MustCompile(`(?m)^REPLAY    go test (\S+) -run '([^']+)' -syncsim\.seed=(\d+) -syncsim\.seeds=(\d+) -v$`)

// Check's report for a plugged-in store names the store, is shrunk with
// it, and its replay line — this very test pinned to the seed — fails the
// same way when followed; no line replays the built-in store instead.
func TestCheckReportReproducesWithThePluggedInStore(t *testing.T) {
	rec := &reportRecorder{fatalRecorder: fatalRecorder{TB: t}}
	Check(rec, SuiteOptions{NewStore: newAmnesiac, Seeds: 100, FirstSeed: 1})
	if len(rec.msgs) != 1 {
		t.Fatalf("Check reported %d times, want once: %q", len(rec.msgs), rec.msgs)
	}
	msg := rec.msgs[0]
	if !strings.Contains(msg, "\nSTORE     scenarios.amnesiac (SuiteOptions.NewStore)\n") {
		t.Errorf("report does not name the store:\n%s", msg)
	}
	if strings.Contains(msg, "syncsim replay") {
		t.Errorf("report offers a replay that runs the built-in store:\n%s", msg)
	}
	m := regexp.MustCompile(`\nOPS       (\d+) steps, shrunk from (\d+) with the same store\n`).FindStringSubmatch(msg)
	if m == nil {
		t.Fatalf("report is not shrunk:\n%s", msg)
	}
	if after, before := atoi(t, m[1]), atoi(t, m[2]); after >= before || after > 4 {
		t.Errorf("shrunk %d -> %d steps, want at most 4", before, after)
	}
	r := replayRe.FindStringSubmatch(msg)
	if r == nil {
		t.Fatalf("no go test replay line:\n%s", msg)
	}
	if r[1] != "./scenarios" || !regexp.MustCompile(r[2]).MatchString(t.Name()) || r[4] != "1" {
		t.Errorf("replay line %q does not run this test's package and name on one seed", r[0])
	}
	seed := r[3]
	if !strings.Contains(msg, "SEED      "+seed+"\n") {
		t.Errorf("replay seed %s is not the report's seed:\n%s", seed, msg)
	}

	// Follow the line: the flags it sets win over the test's own options.
	setFlag(t, flagSeed, uint64(atoi(t, seed)))
	setIntFlag(t, flagSeeds, 1)
	again := &reportRecorder{fatalRecorder: fatalRecorder{TB: t}}
	Check(again, SuiteOptions{NewStore: newAmnesiac, Seeds: 100, FirstSeed: 1})
	if len(again.msgs) != 1 || !strings.HasPrefix(again.msgs[0], "1 of 1 scenarios failed") || !strings.Contains(again.msgs[0], "SEED      "+seed+"\n") {
		t.Errorf("following the replay line did not fail seed %s alone: %q", seed, again.msgs)
	}
}

// A passing Check logs (shown under -v) how many seeds ran, from where.
func TestCheckLogsTheSeedsItRan(t *testing.T) {
	setIntFlag(t, flagSeeds, 0) // the options decide, whatever go test was given
	setFlag(t, flagSeed, 0)
	rec := &reportRecorder{fatalRecorder: fatalRecorder{TB: t}}
	Check(rec, SuiteOptions{NewStore: sim.MemoryScheduler, Seeds: 7, FirstSeed: 40})
	if len(rec.msgs) != 0 {
		t.Fatalf("the memory store failed: %q", rec.msgs)
	}
	want := "scenarios.Check: 7 seeds from 40, 7 passed, 0 failed (store *scheduler.Memory (SuiteOptions.NewStore))"
	if len(rec.logs) != 1 || rec.logs[0] != want {
		t.Errorf("logged %q, want %q", rec.logs, want)
	}
}

// noList is a store without List: the host cannot set its alarm from it.
type noList struct{ s *scheduler.Memory }

func (n noList) Get(ctx context.Context, b string) (scheduler.Intent, bool, error) {
	return n.s.Get(ctx, b)
}
func (n noList) Schedule(ctx context.Context, in scheduler.Intent) error {
	return n.s.Schedule(ctx, in)
}
func (n noList) Clear(ctx context.Context, b string) error { return n.s.Clear(ctx, b) }

func TestCheckRefusesAStoreWithoutList(t *testing.T) {
	rec := &reportRecorder{fatalRecorder: fatalRecorder{TB: t}}
	Check(rec, SuiteOptions{Seeds: 3, NewStore: func() sim.SchedulerFactory {
		return func(string) (scheduler.Scheduler, error) { return noList{scheduler.NewMemory()}, nil }
	}})
	if len(rec.msgs) != 1 || !strings.Contains(rec.msgs[0], "(scenarios.noList) does not implement scheduler.Lister") {
		t.Errorf("Check reported %q, want the missing List named", rec.msgs)
	}
}

// Every run gets a fresh factory: a shrink given NewScheduler asks for one
// per candidate it runs, so no store state outlives its run.
func TestShrinkGetsAFreshStorePerRun(t *testing.T) {
	s := FromSeed(1, Config{Backends: 2, Steps: 30, Scheduler: "memory", Bug: "zero-based-attempts"})
	calls := 0
	small, st, err := Shrink(s, "", ShrinkOptions{Run: RunOptions{NewScheduler: func() sim.SchedulerFactory {
		calls++
		return sim.MemoryScheduler()
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if calls != st.Runs || st.Runs < 2 || Steps(small.Ops) >= st.StepsBefore {
		t.Errorf("%d fresh factories for %d runs (shrunk %d -> %d)", calls, st.Runs, st.StepsBefore, Steps(small.Ops))
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// setFlag and setIntFlag set a test flag for the rest of the test.
func setFlag(t *testing.T, p *uint64, v uint64) {
	old := *p
	*p = v
	t.Cleanup(func() { *p = old })
}

func setIntFlag(t *testing.T, p *int, v int) {
	old := *p
	*p = v
	t.Cleanup(func() { *p = old })
}
