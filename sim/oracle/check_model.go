package oracle

import (
	"slices"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// ModelChecker is the model-driven judge (DESIGN.md, "The oracle: predict,
// never copy"). It steps package model's state with every finished
// operation, reading only what the records say the world did (how a pull
// ended, which runtime ran a command, the store calls the operation made),
// and holds the result the operation returned to the model's prediction:
//
//   - model: retry and exec results, and each operation's intent-store
//     calls, equal the model's;
//   - intent-table, attempt-range: between steps, the stored intent table
//     equals the model's, and every library-written intent's attempt is in
//     range;
//   - error-class, error-text, lost-message: the error an operation returns
//     has the class, the wrapper text and the form the record predicts;
//   - retry-never-reexecs, complete-on-own-runtime, skipped,
//     complete-at-target, fetch-through: what a sync result may claim.
//
// The families share one model: error-text and lost-message need the
// model's verdict on the same operation (a retry the model says is lost,
// a pending failure), so they are raised here and not by a checker of
// their own.
type ModelChecker struct {
	want    func(string) bool
	setup   history.Setup
	opts    model.Options
	records history.Records
	state   model.State
	// planted are the intents the host wrote itself (IntentPlanted), the
	// latest per backend: attempt-range is the library's promise only.
	planted []plantedIntent
	// rep is the reporter of the event being observed.
	rep history.Reporter
	// store buffers the operation's intent-store calls (storeCalls).
	store []model.StoreCall
}

type plantedIntent struct {
	backend string
	in      scheduler.Intent
}

// NewModelChecker returns the model family's checker, reporting the
// properties want selects (nil: every one).
func NewModelChecker(want func(string) bool) *ModelChecker {
	return &ModelChecker{want: want}
}

// Reads: finished operations, the host's own intent writes, the stored
// table between steps, and the intent-store probe's reads.
func (c *ModelChecker) Reads() history.Kinds {
	return history.Of(history.OpReturned, history.IntentPlanted, history.StepEnd, history.IntentProbed)
}

// Begin starts a run from an empty table.
func (c *ModelChecker) Begin(s history.Setup, r history.Records) {
	c.setup, c.records = s, r
	c.opts = model.Options{InitialDelay: s.Retry.InitialDelay, MaxDelay: s.Retry.MaxDelay,
		MaxAttempts: s.Retry.MaxAttempts, NoScheduler: s.NoScheduler}
	c.state = model.Empty()
	c.planted = c.planted[:0]
}

// Observe judges one event.
func (c *ModelChecker) Observe(e *history.Event, rep history.Reporter) {
	c.rep = rep
	switch e.Kind {
	case history.OpReturned:
		c.judgeOp(e)
	case history.IntentPlanted:
		c.state = c.state.Plant(*e.Intent)
		c.planted = append(slices.DeleteFunc(c.planted, func(p plantedIntent) bool { return p.backend == e.Intent.Backend }),
			plantedIntent{backend: e.Intent.Backend, in: *e.Intent})
	case history.StepEnd:
		c.judgeTable(e)
	case history.IntentProbed:
		c.judgeProbe(e)
	}
	c.rep = nil
}

// fail reports property with detail when it is selected, and says whether
// it did: a judgement stops at its first report, as the driver keeps only
// the first.
func (c *ModelChecker) fail(property, detail string) bool {
	if c.want != nil && !c.want(property) {
		return false
	}
	c.rep.Violate(property, detail)
	return true
}

// reach counts one occurrence for the sweep's tables.
func (c *ModelChecker) reach(what string) { c.rep.Reach(what) }

// now is the virtual time of e, absolute.
func (c *ModelChecker) now(e *history.Event) time.Time { return c.setup.T0.Add(e.At) }

// syncNone reports whether backend b's handles do not sync.
func (c *ModelChecker) syncNone(b int) bool { return c.setup.SyncNone == b }

// judgeOp judges one finished operation. A cancelled one (parked before
// any call) is property cancel's; a host write or delete is the local
// store's family.
func (c *ModelChecker) judgeOp(e *history.Event) {
	op := e.Op
	if op.Cancelled {
		return
	}
	switch op.Kind {
	case "retry":
		if c.judgeErrorText(e) || c.judgeFetchThrough(e) || c.judgeRetryComplete(e) {
			return
		}
		c.judgeRetry(e)
	case "exec":
		if c.judgeErrorText(e) || c.judgeExecComplete(e) {
			return
		}
		c.judgeExec(e)
	case "pull":
		if c.judgeErrorText(e) {
			return
		}
		c.judgePull(e)
	case "tail-pull":
		c.judgeTailPull(e)
	}
}

// storeCalls is the operation's own intent-store calls, as the model
// reads them.
func (c *ModelChecker) storeCalls(e *history.Event) []model.StoreCall {
	c.store = c.store[:0]
	for _, s := range c.records.StoreSince(e.Op.StoreMark) {
		if s.Actor == e.Actor {
			c.store = append(c.store, model.StoreCall{Op: string(s.Op), Backend: s.Backend, Failed: s.Err != "", At: s.At})
		}
	}
	return c.store
}

// otherConnect reports whether an actor other than e's connected to e's
// backend while e's operation ran: it may have shared that connect and
// failed with the other's failure, which is not in its own calls.
func (c *ModelChecker) otherConnect(e *history.Event) bool {
	for _, call := range c.records.RuntimeSince(e.Backend, e.Op.StepMarks[e.Backend]) {
		if call.Op == faults.OpConnect && call.Actor != e.Actor {
			return true
		}
	}
	return false
}

// budget is the budget of every retry.
func (c *ModelChecker) budget() workspace.Budget { return c.setup.Budget }
