package sim

import (
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/sim/oracle"
	"github.com/syncsim/syncsim/workspace"
)

// recordBuilder writes an actor's runtime calls the way a container records
// them, numbering them in order.
type recordBuilder struct {
	actor string
	calls []faults.Call
}

func (r *recordBuilder) add(c faults.Call) *recordBuilder {
	c.Seq, c.Actor = len(r.calls)+1, r.actor
	r.calls = append(r.calls, c)
	return r
}

func (r *recordBuilder) fetch(stream int, after, current scheduler.Cursor) *recordBuilder {
	return r.add(faults.Call{Op: faults.OpFetch, Conn: 1, Stream: stream, After: after, CurrentCursor: current})
}

func (r *recordBuilder) entries(stream, n int, bytes int64) *recordBuilder {
	for i := range n {
		e := scheduler.Cursor{Rev: 2, Path: "/out/1-" + string(rune('a'+i)), HasPath: true}
		r.add(faults.Call{Op: faults.OpStreamNext, Conn: 1, Stream: stream, Entry: &e, Entries: i + 1, EntryBytes: bytes})
	}
	return r
}

func (r *recordBuilder) closeEarly(stream int) *recordBuilder {
	return r.add(faults.Call{Op: faults.OpStreamClose, Conn: 1, Stream: stream})
}

func (r *recordBuilder) eof(stream int) *recordBuilder {
	return r.add(faults.Call{Op: faults.OpStreamNext, Conn: 1, Stream: stream, EOF: true})
}

func newJudgeHost(t *testing.T, budget *workspace.Budget) *Host {
	t.Helper()
	h, err := NewHost(judged(Config{Seed: 1, Backends: 1, Profile: faults.Off(), Budget: budget}))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestRecordPropertiesFire feeds each record-settled property a record
// that breaks it, and the same shape that does not, so that a property
// that stops looking is caught by the ordinary test run.
func TestRecordPropertiesFire(t *testing.T) {
	zero, two := scheduler.Cursor{}, scheduler.Cursor{Rev: 2}
	retry := func(r *recordBuilder) finished {
		return finished{actor: r.actor, kind: "retry", backend: 0, marks: []int{0}, retry: workspace.RetryResult{Status: workspace.RetryPending}}
	}
	for _, tc := range []struct {
		name   string
		budget *workspace.Budget
		record func() *recordBuilder
		op     func(*recordBuilder) finished
		want   string // "" for no violation
	}{
		{"three connects in a retry", nil, func() *recordBuilder {
			r := &recordBuilder{actor: "#1.retry.b0"}
			for range 3 {
				r.add(faults.Call{Op: faults.OpConnect, Err: "refused"})
			}
			return r
		}, retry, "connect-bound"},
		{"two connects in a retry", nil, func() *recordBuilder {
			r := &recordBuilder{actor: "#1.retry.b0"}
			for range 2 {
				r.add(faults.Call{Op: faults.OpConnect, Err: "refused"})
			}
			return r
		}, retry, ""},
		{"stream read past the entry budget", &workspace.Budget{MaxEntries: 2, MaxBytes: 1 << 20}, func() *recordBuilder {
			return (&recordBuilder{actor: "#1.retry.b0"}).fetch(1, zero, two).entries(1, 3, 20).closeEarly(1)
		}, retry, "batch-budget"},
		{"stream stopped at the entry budget", &workspace.Budget{MaxEntries: 2, MaxBytes: 1 << 20}, func() *recordBuilder {
			return (&recordBuilder{actor: "#1.retry.b0"}).fetch(1, zero, two).entries(1, 2, 20).closeEarly(1)
		}, retry, ""},
		{"stream stopped under every budget", &workspace.Budget{MaxEntries: 8, MaxBytes: 1 << 20}, func() *recordBuilder {
			return (&recordBuilder{actor: "#1.retry.b0"}).fetch(1, zero, two).entries(1, 1, 20).closeEarly(1)
		}, retry, "batch-budget"},
		{"stream stopped by the byte budget", &workspace.Budget{MaxEntries: 8, MaxBytes: 30}, func() *recordBuilder {
			return (&recordBuilder{actor: "#1.retry.b0"}).fetch(1, zero, two).entries(1, 2, 20).closeEarly(1)
		}, retry, ""},
		{"stream read past the byte stop", &workspace.Budget{MaxEntries: 8, MaxBytes: 30}, func() *recordBuilder {
			return (&recordBuilder{actor: "#1.retry.b0"}).fetch(1, zero, two).entries(1, 3, 20).closeEarly(1)
		}, retry, "batch-budget"},
		{"defer exec that fetches after its command", nil, func() *recordBuilder {
			r := &recordBuilder{actor: "#1.exec.b0"}
			r.add(faults.Call{Op: faults.OpExec, Conn: 1, Stream: 1, Command: "write 1"})
			return r.fetch(2, zero, two).eof(2)
		}, func(r *recordBuilder) finished {
			return finished{actor: r.actor, kind: "exec", mode: workspace.SyncDefer, marks: []int{0}, err: errTest}
		}, "defer-never-pulls"},
		{"wait exec complete without a fetch", nil, func() *recordBuilder {
			r := &recordBuilder{actor: "#1.exec.b0"}
			return r.add(faults.Call{Op: faults.OpExec, Conn: 1, Stream: 1, Command: "write 1"})
		}, func(r *recordBuilder) finished {
			return finished{actor: r.actor, kind: "exec", mode: workspace.SyncWait, marks: []int{0}, err: errTest,
				exec: workspace.ExecResult{Sync: workspace.SyncResult{Status: workspace.SyncComplete}}}
		}, ""}, // f.err set: a thrown exec is not judged for its sync
		{"pullOnce stream closed before its end", nil, func() *recordBuilder {
			r := &recordBuilder{actor: "#1.exec.b0"}
			r.add(faults.Call{Op: faults.OpExec, Conn: 1, Stream: 1, Command: "write 1"})
			return r.fetch(2, zero, two).entries(2, 1, 20).closeEarly(2)
		}, func(r *recordBuilder) finished {
			return finished{actor: r.actor, kind: "exec", mode: workspace.SyncWait, marks: []int{0}, err: errTest}
		}, "pull-to-end"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.record()
			f := tc.op(r)
			v := recordChecked(f, r.calls) // the record's own invariants first, as the registry has them
			if v == nil {
				v = batchChecked(f, r.calls, tc.budget)
			}
			switch {
			case tc.want == "" && v != nil:
				t.Fatalf("violation on a record that keeps the property: %v", v)
			case tc.want != "" && v == nil:
				t.Fatalf("no violation, want %s", tc.want)
			case tc.want != "" && v.Property != tc.want:
				t.Fatalf("violation %s, want %s: %v", v.Property, tc.want, v)
			}
		})
	}
}

var errTest = errTestType{}

type errTestType struct{}

func (errTestType) Error() string { return "test: the exec threw" }

// recordChecked runs oracle.SyncRecordChecker, the checker of the
// invariants the record settles alone, over f as the history hands it
// over, and returns what it reports as a violation.
func recordChecked(f finished, calls []faults.Call) *Violation {
	c := &oracle.SyncRecordChecker{}
	for _, p := range oracle.Registry {
		if p.Family == "sync-record" {
			c = p.New(func(string) bool { return true }).(*oracle.SyncRecordChecker)
		}
	}
	c.Begin(history.Setup{Backends: []string{"b0"}, SyncNone: -1}, nil)
	var rep firstReport
	c.Observe(&history.Event{Kind: history.OpReturned, Actor: f.actor, Backend: f.backend,
		Op: &history.Op{Kind: f.kind, Mode: f.mode, Exec: f.exec, Retry: f.retry, Pull: f.pull, Err: f.err, Calls: calls}}, &rep)
	return rep.v
}

// batchChecked runs oracle.BatchBudgetChecker over f with the batch budget
// (nil: the default) and returns what it reports as a violation.
func batchChecked(f finished, calls []faults.Call, budget *workspace.Budget) *Violation {
	s := history.Setup{Backends: []string{"b0"}, SyncNone: -1, Budget: specDefaultBudget, DefaultBudget: budget == nil}
	if budget != nil {
		s.Budget = *budget
	}
	c := oracle.Lookup("batch-budget").New(func(string) bool { return true })
	c.Begin(s, nil)
	var rep firstReport
	c.Observe(&history.Event{Kind: history.OpReturned, Actor: f.actor, Backend: f.backend,
		Op: &history.Op{Kind: f.kind, Mode: f.mode, Exec: f.exec, Retry: f.retry, Pull: f.pull, Err: f.err, Calls: calls, Begun: f.begun}}, &rep)
	return rep.v
}

// firstReport keeps the first violation a checker reports.
type firstReport struct{ v *Violation }

func (r *firstReport) Violate(property, detail string) {
	if r.v == nil {
		r.v = &Violation{Property: property, Detail: detail}
	}
}

func (r *firstReport) Reach(string) {}
