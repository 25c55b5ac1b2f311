package sim

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
	"github.com/syncsim/syncsim/workspace/planttest"
)

// The budget probe (property api). The host hands every retry a budget the
// scenario fixed, always valid, so pullBatch's budget validation (SPEC 6.4:
// maxEntries and maxBytes positive safe integers, in that order, then a
// wall-time limit that is absent or positive) would never run. At its first
// start (in one seed of probeOneIn) the host therefore runs probeBudgets
// retries of its own, each on a workspace of its own over a fault-free
// container with an empty log and one planted intent, with a budget drawn
// from edge values, and holds each result to the rule as this file restates
// it: a valid budget completes (nothing to fetch), an invalid one is a
// counted failure (pending, attempt 2) carrying the SPEC's message for the
// first failing field. Own stream, own container, stores and clock; no trace
// line unless it fails.

// probeBudgets is how many retries one budget probe runs.
const probeBudgets = 2

var (
	probeBudgetCounts = []int64{1, 64, specMaxSafe, 0, -1, specMaxSafe + 1}
	probeBudgetWalls  = []time.Duration{0, time.Nanosecond, time.Second, -time.Nanosecond}
)

// specBudgetError is the message SPEC 6.4 says pullBatch throws for b (""
// when b is valid).
func specBudgetError(b workspace.Budget) string {
	switch {
	case b.MaxEntries <= 0 || int64(b.MaxEntries) > specMaxSafe:
		return "Sync batch maxEntries must be a positive safe integer"
	case b.MaxBytes <= 0 || b.MaxBytes > specMaxSafe:
		return "Sync batch maxBytes must be a positive safe integer"
	case b.MaxWallTime < 0:
		return "Sync batch maxWallTimeMs must be a positive finite number"
	}
	return ""
}

func drawProbeBudget(r *rand.Rand) workspace.Budget {
	return workspace.Budget{
		MaxEntries:  int(probeBudgetCounts[r.IntN(len(probeBudgetCounts))]),
		MaxBytes:    probeBudgetCounts[r.IntN(len(probeBudgetCounts))],
		MaxWallTime: probeBudgetWalls[r.IntN(len(probeBudgetWalls))],
	}
}

func describeProbeBudget(b workspace.Budget) string {
	return "entries=" + strconv.Itoa(b.MaxEntries) + " bytes=" + strconv.FormatInt(b.MaxBytes, 10) + " wall=" + b.MaxWallTime.String()
}

// checkBudgetValidation runs one probe retry per drawn budget with retry
// and returns what disagrees with SPEC 6.4 ("" when nothing does).
func checkBudgetValidation(r *rand.Rand, n int, retry func(workspace.Budget) (workspace.RetryResult, error)) string {
	for range n {
		b := drawProbeBudget(r)
		want := specBudgetError(b)
		res, err := retry(b)
		switch {
		case err != nil:
			return "budget " + describeProbeBudget(b) + ": expected a retry result (SPEC 6.4: a pull failure is a result), got the error " + strconv.Quote(err.Error())
		case want == "" && res.Status != workspace.RetryComplete:
			return "budget " + describeProbeBudget(b) + ": a valid budget on an empty log: expected complete, got " + string(res.Status) + " " + strconv.Quote(res.Error)
		case want != "" && (res.Status != workspace.RetryPending || res.Attempt != 2 || !strings.Contains(res.Error, want)):
			return "budget " + describeProbeBudget(b) + ": expected a counted failure (pending, attempt 2) with \"" + want + "\" (SPEC 6.4, first failing field), got " +
				string(res.Status) + " attempt " + strconv.Itoa(res.Attempt) + " " + strconv.Quote(res.Error)
		}
	}
	return ""
}

// probeBudget runs the budget probe at the host's first start.
func (h *Host) probeBudget() {
	r := Stream(h.cfg.Seed, "budget-probe")
	const id = "syncsim-budget-probe"
	retry := func(b workspace.Budget) (workspace.RetryResult, error) {
		clk := NewClock(h.t0) // its own: the probe moves no time of the run
		sched := scheduler.NewMemory()
		ctx := context.Background()
		if err := sched.Schedule(ctx, scheduler.Intent{Backend: id, Attempt: 1, NotBefore: h.t0}); err != nil {
			return workspace.RetryResult{}, err
		}
		off := faults.Profile{}
		c := faults.NewContainer(id, faults.NoHooks{}, rand.New(rand.NewPCG(r.Uint64(), r.Uint64())), &off)
		defer c.ReleaseRecord() // nothing reads the probe's record: its chunk goes back to the pool
		c.SetClock(clk.Now)
		ws, err := planttest.New(workspace.Options{
			Backends:  []workspace.BackendConfig{{ID: id, Backend: c}},
			Clock:     clk,
			Scheduler: sched,
			Store:     workspace.NewMemoryStore(),
		}, h.cfg.Mutant)
		if err != nil {
			return workspace.RetryResult{}, err
		}
		return ws.RetryPendingSync(ctx, id, &b)
	}
	if d := checkBudgetValidation(r, probeBudgets, retry); d != "" {
		h.fail("api", d)
	}
}
