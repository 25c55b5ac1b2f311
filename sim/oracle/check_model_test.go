package oracle

import (
	"strings"
	"testing"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// The model family's tests call the ModelChecker's judgements one by one
// on a hand-made finished operation, as the driver's Observe would on an
// OpReturned event, and read what they reported.

// modelT0 is the virtual clock's start in the model family's tests.
var modelT0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// modelHarness is a ModelChecker begun on one backend, a record of the
// other actors' calls the test may fill (rec), and a reporter that keeps
// what the checker reports (reports).
type modelHarness struct {
	*ModelChecker
	rec     *fakeRecords
	reports *recorder
}

// newModelHarness begins a ModelChecker on one backend named id (index 0)
// that syncs, under SPEC 2.2's default backoff and the default budget,
// every property selected.
func newModelHarness(id string) *modelHarness {
	m := &modelHarness{ModelChecker: NewModelChecker(nil), rec: &fakeRecords{}, reports: &recorder{}}
	m.Begin(history.Setup{
		Backends: []string{id},
		SyncNone: -1,
		T0:       modelT0,
		Retry:    workspace.RetryOptions{InitialDelay: time.Second, MaxDelay: time.Minute, MaxAttempts: 5},
		Budget:   workspace.DefaultBudget,
	}, m.rec)
	m.rep = m.reports // as Observe sets it for the event it judges
	return m
}

// verdict is the property a judgement reported ("" for none). fired is
// what the judgement returned; it must agree with the report, and one
// judgement reports once at most.
func (m *modelHarness) verdict(t *testing.T, fired bool) string {
	t.Helper()
	if fired != (len(m.reports.violations) > 0) || len(m.reports.violations) > 1 {
		t.Fatalf("the judgement returned %t but reported %q", fired, m.reports.violations)
	}
	if !fired {
		return ""
	}
	property, _, _ := strings.Cut(m.reports.violations[0], ": ")
	return property
}

// fakeRecords is the run's records as a judge reads them: backend 0's
// runtime calls from position 0 (runtime), and no intent-store call.
type fakeRecords struct {
	runtime []faults.Call
}

func (r *fakeRecords) RuntimeSince(b, mark int) []faults.Call {
	if b != 0 || mark >= len(r.runtime) {
		return nil
	}
	return r.runtime[mark:]
}

func (r *fakeRecords) StoreSince(int) []faults.StoreCall { return nil }

// opEvent is the OpReturned event of an operation of kind by actor on
// backend 0 whose own calls are calls, its step begun at record position
// 0. The test sets the result, the error and the rest on e.Op.
func opEvent(actor, kind string, calls []faults.Call) *history.Event {
	return &history.Event{Kind: history.OpReturned, Actor: actor, Backend: 0,
		Op: &history.Op{Kind: kind, Calls: calls, StepMarks: []int{0}}}
}

// ownCalls is actor's record: calls in order, each numbered from 1 (Seq)
// and made by actor, as a container records them.
func ownCalls(actor string, calls ...faults.Call) []faults.Call {
	out := make([]faults.Call, len(calls))
	for i, c := range calls {
		c.Seq, c.Actor = i+1, actor
		out[i] = c
	}
	return out
}
