package main

// This file is the one place the command meets the scenario-file, corpus
// and shrinker API of package scenarios.

import (
	"os"
	"time"

	"github.com/syncsim/syncsim/scenarios"
	"github.com/syncsim/syncsim/sim"
)

// shrinkOutcome is what a shrink reports.
type shrinkOutcome struct {
	stepsBefore, stepsAfter int
	runs                    int
	elapsed                 time.Duration
	budgetHit               bool
}

// shrinkScenario shrinks s keeping property violated. Once stop is closed
// (an interrupt) the shrink ends at its next candidate with the smallest
// scenario found so far, reported as stopped by the budget: the shrinker's
// clock is the one thing that decides when to give up, so a clock that
// jumps past the budget is how an interrupt reaches it. A nil stop never
// fires.
func shrinkScenario(s scenarios.Scenario, property string, stop <-chan struct{}) (scenarios.Scenario, shrinkOutcome, error) {
	start := time.Now()
	clock := func() time.Time {
		select {
		case <-stop:
			return start.Add(interruptedClockJump)
		default:
			return time.Now()
		}
	}
	small, st, err := scenarios.Shrink(s, property, scenarios.ShrinkOptions{Clock: clock})
	out := shrinkOutcome{
		stepsBefore: st.StepsBefore, stepsAfter: st.StepsAfter,
		runs: st.Runs, elapsed: time.Since(start), budgetHit: st.BudgetHit,
	}
	return small, out, err
}

// interruptedClockJump is far past any shrink budget.
const interruptedClockJump = 1000 * time.Hour

// fileCase is one scenario of a scenario file with what it expects.
type fileCase struct {
	scenario scenarios.Scenario
	expected string // "" when the file states no expectation
	pos      string // file:line
}

// readScenarioFile parses every case of a scenario file.
func readScenarioFile(path string) ([]fileCase, error) {
	// Open first, so that a missing file is reported as the OS says it
	// ("open x.txt: no such file or directory"), not through the parser.
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	f.Close()
	cases, err := scenarios.ParseFile(path)
	if err != nil {
		return nil, err
	}
	out := make([]fileCase, len(cases))
	for i, c := range cases {
		out[i] = fileCase{scenario: c.Scenario, expected: c.Expected, pos: c.Pos}
	}
	return out, nil
}

// observe is the text a scenario file's expectation is compared with.
func observe(r scenarios.Result) string { return scenarios.Observe(r) }

// saveScenario writes s, which violates property, as a corpus file under
// dir (created if missing) and returns its path. WriteCorpusFile replays s
// itself for the expected block, so only the property is handed over.
func saveScenario(dir string, s scenarios.Scenario, property string) (string, error) {
	return scenarios.WriteCorpusFile(dir, s, scenarios.Result{Violation: &sim.Violation{Property: property}})
}
