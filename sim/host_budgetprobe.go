package sim

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
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
// from edge values, and holds each result to the rule as
// oracle.APIChecker restates it: a valid budget completes (nothing to fetch), an invalid one is a
// counted failure (pending, attempt 2) carrying the SPEC's message for the
// first failing field. Own stream, own container, stores and clock; no trace
// line unless it fails.

// probeBudgets is how many retries one budget probe runs.
const probeBudgets = 2

// maxSafe is Number.MAX_SAFE_INTEGER, the SPEC's bound: an edge value.
const maxSafe = 1<<53 - 1

var (
	probeBudgetCounts = []int64{1, 64, maxSafe, 0, -1, maxSafe + 1}
	probeBudgetWalls  = []time.Duration{0, time.Nanosecond, time.Second, -time.Nanosecond}
)

func drawProbeBudget(r *rand.Rand) workspace.Budget {
	return workspace.Budget{
		MaxEntries:  int(probeBudgetCounts[r.IntN(len(probeBudgetCounts))]),
		MaxBytes:    probeBudgetCounts[r.IntN(len(probeBudgetCounts))],
		MaxWallTime: probeBudgetWalls[r.IntN(len(probeBudgetWalls))],
	}
}

// probeBudgetRetries runs one probe retry per drawn budget with retry and hands
// each outcome to record, until record says stop.
func probeBudgetRetries(r *rand.Rand, n int, retry func(workspace.Budget) (workspace.RetryResult, error), record func(workspace.Budget, workspace.RetryResult, error) (stop bool)) {
	for range n {
		b := drawProbeBudget(r)
		res, err := retry(b)
		if record(b, res, err) {
			return
		}
	}
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
	probeBudgetRetries(r, probeBudgets, retry, func(b workspace.Budget, res workspace.RetryResult, err error) bool {
		h.appendEvent(history.Event{Kind: history.APIProbed, Probe: &history.Probe{What: "budget", Budget: b, Result: res, Err: err}})
		return h.violated != nil
	})
}
