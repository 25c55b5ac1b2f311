package main

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// A run that blocks for real is reported, not waited on: with a store whose
// third Schedule never returns, `syncsim run` ends within the 60 s
// with property hang, the seed, the stuck goroutine's stack and exit 1; the
// same for a workspace lock held across a backend call. -max-failures 2 makes
// the sweep go on past the first hang to the next failing seed.
func TestRunReportsHangs(t *testing.T) {
	for _, tc := range []struct{ bug, stuck string }{
		{"blocking-scheduler", "blockingScheduler).Schedule"},
		{"mutex-across-call", "sync.(*Mutex).Lock"},
	} {
		t.Run(tc.bug, func(t *testing.T) {
			start := time.Now()
			code, out, errs := syncsim(t, "run", "-bug", tc.bug, "-seed", "1", "-seeds", "60", "-workers", "1",
				"-max-failures", "2", "-watchdog", "2s")
			took := time.Since(start)
			if code != exitFail {
				t.Fatalf("exit %d, want %d; stderr %q", code, exitFail, errs)
			}
			first := regexp.MustCompile(`--- FAIL 1: seed (\d+), property hang`).FindStringSubmatch(out)
			if first == nil || !regexp.MustCompile(`--- FAIL 2: seed \d+, property hang`).MatchString(out) {
				t.Fatalf("want two hangs, the sweep going on past the first:\n%s", firstLinesOf(out, 3))
			}
			for _, want := range []string{"SEED      " + first[1] + "\n", "STACKS", tc.stuck, "not shrunk: a hang is not shrunk"} {
				if !strings.Contains(out, want) {
					t.Errorf("report lacks %q:\n%s", want, firstLinesOf(out, 40))
				}
			}
			if took > 60*time.Second {
				t.Errorf("took %s, want within 60s", took)
			}
		})
	}
}

func TestWatchdogFlagIsChecked(t *testing.T) {
	wantUsageError(t, "-watchdog", "run", "-watchdog", "0s")
	wantUsageError(t, "-watchdog", "replay", "-seed", "1", "-watchdog", "-1s")
}

func firstLinesOf(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
