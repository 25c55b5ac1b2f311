package sim

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/sim/oracle"
)

// beginHistory starts the run's history and its judge: the checkers of
// the selected properties (package sim/oracle), then the user's own.
func (h *Host) beginHistory() error {
	judged, err := oracle.Selection(h.cfg.Properties)
	if err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	j, _, err := oracle.Select(h.cfg.Properties)
	if err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	if h.cfg.CheckerClock != nil {
		j.Costing(h.cfg.CheckerClock)
	}
	h.checker = j
	var judge history.Judge = j
	if len(h.cfg.Checkers) > 0 {
		judge = oracle.Compose(append([]oracle.Checker{j}, h.cfg.Checkers...)...)
	}
	h.judged = judged
	syncNone := -1
	for b := range h.names {
		if h.syncNone(b) {
			syncNone = b
		}
	}
	h.hist.Reset(history.Setup{Backends: h.names, PushBatch: h.pushBudget(), SyncNone: syncNone}, hostRecords{h}, judge, hostReporter{h})
	return nil
}

// appendEvent appends e to the history at the current virtual time.
func (h *Host) appendEvent(e history.Event) {
	e.At = h.clock.Now().Sub(h.t0)
	h.hist.Append(e)
}

// stepEnd appends the end of a step and returns the violation a checker
// reported at it, if any.
func (h *Host) stepEnd() *Violation {
	h.appendEvent(history.Event{Kind: history.StepEnd})
	return h.violated
}

// History returns the run's history so far.
func (h *Host) History() *history.History { return &h.hist }

// hostReporter turns what the judge reports into the run's violation and
// reach counts.
type hostReporter struct{ h *Host }

func (r hostReporter) Violate(property, detail string) { r.h.fail(property, detail) }

func (r hostReporter) Reach(what string) { r.h.stats.Faults[what]++ }

// hostRecords lends the judge the fault wrappers' records.
type hostRecords struct{ h *Host }

func (r hostRecords) RuntimeSince(b, mark int) []faults.Call { return r.h.recordSince(b, mark) }

// containerMarks returns every container's record position.
func (h *Host) containerMarks() []int {
	marks := make([]int, len(h.containers))
	for i, c := range h.containers {
		marks[i] = c.Mark()
	}
	return marks
}

// opReturned appends operation f's return, with calls (its own runtime
// calls since its step began, local-store faults inserted), and returns
// the violation a checker reported at it, if any.
func (h *Host) opReturned(f finished, calls []faults.Call) *Violation {
	var commands []faults.Execution
	if f.kind == "exec" {
		commands = h.containers[f.backend].ExecsOf(f.actor)
	}
	h.appendEvent(history.Event{Kind: history.OpReturned, Actor: f.actor, Backend: f.backend, Op: &history.Op{
		Kind: f.kind, Mode: f.mode, Path: f.path, Size: f.size, Version: f.version,
		Exec: f.exec, Retry: f.retry, Pull: f.pull, Err: f.err,
		CancelHit: h.hit[f.actor], Cancelled: h.cancelled[f.actor],
		Calls: calls, Commands: commands, StepMarks: f.marks,
	}})
	return h.violated
}

// CheckerCosts returns what each built-in checker has spent so far, when
// Config.CheckerClock was set (nil otherwise).
func (h *Host) CheckerCosts() []oracle.Cost {
	if h.cfg.CheckerClock == nil {
		return nil
	}
	return h.checker.Costs()
}
