package oracle

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/sim/history"
)

// Every registry entry is complete and named once; a family's members
// share one constructor; the driver's own failures are one family.
func TestRegistryEntriesAreComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Registry {
		if p.Name == "" || p.What == "" || p.Basis == "" {
			t.Errorf("incomplete entry %+v", p)
		}
		if seen[p.Name] {
			t.Errorf("property %s registered twice", p.Name)
		}
		seen[p.Name] = true
		if p.New != nil && p.Reads() == 0 {
			t.Errorf("property %s: its checker reads nothing", p.Name)
		}
		if p.Basis == Driver && p.New != nil && p.Family != "driver" {
			t.Errorf("property %s: a driver failure the driver records is family driver's (DriverChecker)", p.Name)
		}
	}
}

func TestSelectionRefusesAnUnknownName(t *testing.T) {
	_, err := Selection([]string{"handle-leak", "no-such-property"})
	if err == nil || !strings.Contains(err.Error(), `"no-such-property"`) {
		t.Fatalf("expected an error naming no-such-property, got %v", err)
	}
	want, err := Selection([]string{"handle-leak"})
	if err != nil {
		t.Fatal(err)
	}
	if !want("handle-leak") || want("fifo") {
		t.Fatal("expected handle-leak selected and fifo not")
	}
	if !want("no-panic") {
		t.Fatal("expected the driver's own failures always selected")
	}
}

// Select builds one checker per selected property or family, in registry
// order, and the driver's (always selected).
func TestSelectBuildsTheSelectedCheckers(t *testing.T) {
	j, err := Select([]string{"handle-leak", "model", "error-class"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(j.names, ","); got != "model,driver,handle-leak" {
		t.Fatalf("expected the checkers model (one for its family), driver (always) and handle-leak, in registry order, got %s", got)
	}
	if !j.Reads().Has(history.StepEnd) {
		t.Fatal("expected the judge to read step ends")
	}
	none, err := Select([]string{None})
	if err != nil {
		t.Fatal(err)
	}
	if none.Reads() != history.Of(history.DriverFailed) {
		t.Fatalf("expected the judge of no property to read the driver's failures alone, got %s", none.Reads())
	}
}

// Every property is raised by a checker: its own, or its family's.
func TestEveryPropertyHasAChecker(t *testing.T) {
	for _, p := range Registry {
		if !p.InOracle() {
			t.Errorf("property %s has no checker", p.Name)
		}
	}
}

// recorder is a Reporter that keeps what it is told.
type recorder struct{ violations, reached []string }

func (r *recorder) Violate(property, detail string) {
	r.violations = append(r.violations, property+": "+detail)
}
func (r *recorder) Reach(what string) { r.reached = append(r.reached, what) }

// Compose calls the checkers that read an event's kind, in order.
func TestComposeDispatchesByKindInOrder(t *testing.T) {
	a := &fixedChecker{reads: history.Of(history.StepEnd), property: "a"}
	b := &fixedChecker{reads: history.Of(history.StepEnd, history.GateWait), property: "b"}
	c := &fixedChecker{reads: history.Of(history.GateWait), property: "c"}
	j := Compose(a, b, c)
	var rep recorder
	j.Begin(history.Setup{}, nil)
	j.Observe(&history.Event{Kind: history.StepEnd}, &rep)
	j.Observe(&history.Event{Kind: history.GateWait}, &rep)
	j.Observe(&history.Event{Kind: history.HostStart}, &rep)
	if got, want := strings.Join(rep.violations, ","), "a: step-end,b: step-end,b: gate-wait,c: gate-wait"; got != want {
		t.Fatalf("expected %s, got %s", want, got)
	}
}

type fixedChecker struct {
	reads    history.Kinds
	property string
}

func (c *fixedChecker) Reads() history.Kinds                 { return c.reads }
func (c *fixedChecker) Begin(history.Setup, history.Records) {}
func (c *fixedChecker) Observe(e *history.Event, r history.Reporter) {
	r.Violate(c.property, e.Kind.String())
}
