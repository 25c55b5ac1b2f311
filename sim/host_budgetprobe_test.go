package sim

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/sim/oracle"
	"github.com/syncsim/syncsim/workspace"
)

// checkBudgetValidation runs the probe's draws against retry and returns
// the first verdict oracle.APIChecker gives ("" for none).
func checkBudgetValidation(r *rand.Rand, n int, retry func(workspace.Budget) (workspace.RetryResult, error)) string {
	d := ""
	probeBudgetRetries(r, n, retry, func(b workspace.Budget, res workspace.RetryResult, err error) bool {
		d = oracle.BudgetVerdict(b, res, err)
		return d != ""
	})
	return d
}

// specRetry answers a probe retry as SPEC 6.4 and SPEC 4 say, with the
// budget check given: a valid budget completes, an invalid one is a counted
// failure carrying check's message.
func specRetry(check func(workspace.Budget) string) func(workspace.Budget) (workspace.RetryResult, error) {
	return func(b workspace.Budget) (workspace.RetryResult, error) {
		if msg := check(b); msg != "" {
			return workspace.RetryResult{Status: workspace.RetryPending, Attempt: 2, Error: msg}, nil
		}
		return workspace.RetryResult{Status: workspace.RetryComplete}, nil
	}
}

// TestBudgetProbeCatchesBrokenValidation: the rule as the SPEC states it
// passes the probe at every seed; a check that accepts a zero count, one
// that refuses the largest safe integer, one that tests bytes before
// entries and one that refuses the no-limit wall time are each reported
// within 600 seeds.
func TestBudgetProbeCatchesBrokenValidation(t *testing.T) {
	for seed := range uint64(600) {
		if d := checkBudgetValidation(Stream(seed, "budget-probe"), probeBudgets, specRetry(oracle.SpecBudgetError)); d != "" {
			t.Fatalf("seed %d: the SPEC's own rule failed the probe: %s", seed, d)
		}
	}
	broken := map[string]func(workspace.Budget) string{
		"zero entries accepted": func(b workspace.Budget) string {
			if b.MaxEntries == 0 {
				b.MaxEntries = 1
			}
			return oracle.SpecBudgetError(b)
		},
		"max safe refused": func(b workspace.Budget) string {
			if b.MaxBytes == maxSafe {
				return "Sync batch maxBytes must be a positive safe integer"
			}
			return oracle.SpecBudgetError(b)
		},
		"bytes first": func(b workspace.Budget) string {
			if b.MaxBytes <= 0 {
				return "Sync batch maxBytes must be a positive safe integer"
			}
			return oracle.SpecBudgetError(b)
		},
		"no wall limit refused": func(b workspace.Budget) string {
			if b.MaxWallTime == 0 {
				return "Sync batch maxWallTimeMs must be a positive finite number"
			}
			return oracle.SpecBudgetError(b)
		},
	}
	for name, check := range broken {
		found := ""
		for seed := range uint64(600) {
			if d := checkBudgetValidation(Stream(seed, "budget-probe"), probeBudgets, specRetry(check)); d != "" {
				found = d
				break
			}
		}
		if !strings.HasPrefix(found, "budget ") {
			t.Errorf("%s: the probe never reported the broken validation in 600 seeds", name)
		}
	}
}
