package main

// This file is the one place the command meets the scenario-file and
// shrinker API of package scenarios; until those land, it reports them as
// not built and the subcommands that need them exit 2 saying so.

import (
	"errors"
	"time"

	"github.com/syncsim/syncsim/scenarios"
)

// errNotBuilt marks a feature whose library half is not in scenarios yet.
var errNotBuilt = errors.New("not built yet")

// shrinkOutcome is what a shrink reports.
type shrinkOutcome struct {
	stepsBefore, stepsAfter int
	runs                    int
	elapsed                 time.Duration
	budgetHit               bool
}

// shrinkScenario shrinks s keeping property violated.
func shrinkScenario(s scenarios.Scenario, property string) (scenarios.Scenario, shrinkOutcome, error) {
	small, st, err := scenarios.Shrink(s, property, scenarios.ShrinkOptions{})
	out := shrinkOutcome{
		stepsBefore: st.StepsBefore, stepsAfter: st.StepsAfter,
		runs: st.Runs, elapsed: st.Elapsed, budgetHit: st.BudgetHit,
	}
	return small, out, err
}

// fileCase is one scenario of a scenario file with what it expects.
type fileCase struct {
	scenario scenarios.Scenario
	expected string // "" when the file states no expectation
	pos      string // file:line
}

// readScenarioFile parses every case of a scenario file.
func readScenarioFile(path string) ([]fileCase, error) {
	return nil, errNotBuilt
}

// observe is the text a scenario file's expectation is compared with.
func observe(r scenarios.Result) string { return "" }

// saveScenario writes s with what r observed as a corpus file under dir and
// returns its path.
func saveScenario(dir string, s scenarios.Scenario, r scenarios.Result) (string, error) {
	return "", errNotBuilt
}
