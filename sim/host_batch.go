package sim

import "github.com/syncsim/syncsim/workspace"

// budget is the batch budget every retry runs with (the history's Setup
// hands it to the checkers: property batch-budget is
// oracle.BatchBudgetChecker's).
func (h *Host) budget() workspace.Budget {
	if h.cfg.Budget != nil {
		return *h.cfg.Budget
	}
	return specDefaultBudget
}

// specDefaultBudget is SPEC 6.4's default batch budget, written here rather
// than read from workspace.DefaultBudget: the oracle must not share a
// constant with the code it judges.
var specDefaultBudget = workspace.Budget{MaxEntries: 64, MaxBytes: 4 << 20}
