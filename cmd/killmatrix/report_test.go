package main

import (
	"errors"
	"strings"
	"testing"
)

func TestOutcomeAndTally(t *testing.T) {
	rep := report{Seeds: 600, First: 1, Examples: true, Results: []result{
		{M: Mutant{Name: "a"}, Sweep: sweepResult{Killed: true, Property: "model", Seed: 5, Seeds: 5}, Examples: exampleResult{Killed: true, Failed: "workspace TestX"}},
		{M: Mutant{Name: "b"}, Sweep: sweepResult{Killed: true, Property: "alarm", Seed: 9, Seeds: 9}},
		{M: Mutant{Name: "c"}, Examples: exampleResult{Killed: true, Failed: "scheduler TestY"}},
		{M: Mutant{Name: "d"}},
		{M: Mutant{Name: "e", Equivalent: "cannot be observed"}},
		{M: Mutant{Name: "f"}, Sweep: sweepResult{Err: errors.New("boom")}},
	}}
	var got []string
	for _, r := range rep.Results {
		got = append(got, r.outcome().String())
	}
	want := []string{"killed by the property sweep", "killed by the property sweep", "killed only by example tests",
		"survived", "survived", "not measured"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("outcomes %q, want %q", got, want)
	}
	tl := rep.tally()
	if tl != (tally{total: 6, equivalent: 1, nonEquivalent: 4, property: 2, examplesOnly: 1, survived: 1, examplesAll: 2, sweepOnly: 1, errs: 1}) {
		t.Errorf("tally %+v", tl)
	}
	md := rep.markdown()
	for _, s := range []string{
		"| killed by the property sweep | 2 | 50.0% |",
		"| `b` |", "`alarm` after 9 seeds", "passes 600 seeds", "`scheduler TestY`",
		"equivalent: cannot be observed", "**not measured**: boom", "**survived**",
	} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %q:\n%s", s, md)
		}
	}
}

func TestSpliceBlockKeepsTextAroundMarkers(t *testing.T) {
	block := markBegin + "\nnew table\n" + markStop + "\n"
	doc := "# Title\n\nintro\n\n" + markBegin + "\nold table\n" + markStop + "\n\n## Survivors\nnotes\n"
	got := spliceBlock(doc, block)
	want := "# Title\n\nintro\n\n" + markBegin + "\nnew table\n" + markStop + "\n\n## Survivors\nnotes\n"
	if got != want {
		t.Errorf("spliced:\n%s\nwant:\n%s", got, want)
	}
	if got := spliceBlock("no markers here\n", block); !strings.HasPrefix(got, "# Mutation kill matrix\n\n"+markBegin) {
		t.Errorf("fresh file:\n%s", got)
	}
}

func TestFirstFailure(t *testing.T) {
	out := "ok  \tgithub.com/syncsim/syncsim/workspace\t0.5s\n" +
		"--- FAIL: TestAlarmRule (0.00s)\n    --- FAIL: TestAlarmRule/sub (0.00s)\nFAIL\n" +
		"FAIL\tgithub.com/syncsim/syncsim/scheduler\t0.1s\nFAIL\n"
	if got := firstFailure(out); got != "scheduler TestAlarmRule" {
		t.Errorf("firstFailure = %q", got)
	}
	timedOut := "panic: test timed out after 4m30s\n\trunning tests:\n\t\tTestWakerRetries (4m30s)\n\ngoroutine 1 [running]:\n" +
		"FAIL\tgithub.com/syncsim/syncsim/scheduler\t270.1s\n"
	if got := firstFailure(timedOut); got != "scheduler TestWakerRetries (timed out)" {
		t.Errorf("firstFailure of a timeout = %q", got)
	}
	if got := firstFailure("panic: boom\nFAIL\tgithub.com/syncsim/syncsim/workspace\t0.1s\n"); got != "workspace" {
		t.Errorf("firstFailure without a test line = %q", got)
	}
}
