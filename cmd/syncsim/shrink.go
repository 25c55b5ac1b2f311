package main

import (
	"fmt"
	"os"

	"github.com/syncsim/syncsim/scenarios"
)

// shrinkFailure shrinks a sweep's failure keeping its property and, when
// dir is not "", saves the shrunk scenario there. Errors are recorded on f
// for the report: a failure stays a failure whether or not it shrinks.
func shrinkFailure(f *failure, dir string) {
	if f.shrinkSkipped != "" {
		return
	}
	small, st, err := shrinkScenario(f.scenario, f.property)
	if err != nil {
		f.shrinkErr = err
		return
	}
	f.stepsBefore, f.stepsAfter = st.stepsBefore, st.stepsAfter
	f.shrinkTime, f.shrinkRuns, f.budgetHit = st.elapsed, st.runs, st.budgetHit
	if dir == "" {
		return
	}
	f.file, f.saveErr = saveShrunk(dir, small)
}

// saveShrunk runs s once with its full trace (for the file's expectation)
// and writes it as a corpus file under dir.
func saveShrunk(dir string, s scenarios.Scenario) (string, error) {
	r, err := scenarios.Run(s, scenarios.RunOptions{})
	if err != nil {
		return "", fmt.Errorf("rerun of the shrunk scenario: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return saveScenario(dir, s, r)
}

func cmdShrink(e env, args []string) int {
	return usageError(e, "shrink", "not wired yet")
}
