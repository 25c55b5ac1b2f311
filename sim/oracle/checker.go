package oracle

import (
	"fmt"
	"slices"
	"strings"

	"github.com/syncsim/syncsim/sim/history"
)

// Checker judges one property (or one family of properties that share
// what they read) from a run's history. It is a history.Judge: Reads says
// which events Observe is given, Begin starts a run, and Observe reports
// what it finds through the Reporter, naming the property. A Checker keeps
// state across the events of one run and is reset by Begin, so one value
// serves run after run.
//
// A user writes one for their own store the same way (see
// scenarios.SuiteOptions.Checkers): it reads the events, never the driver.
type Checker = history.Judge

// Judge runs several checkers over one history, in order: for each event
// the checkers that read its kind are called in the order they were given,
// so a run that breaks two properties at one event reports the first
// checker's. It is Jepsen's compose.
type Judge struct {
	checkers []Checker
	reads    history.Kinds
	// byKind[k] lists the checkers that read kind k.
	byKind [64][]Checker
}

// Compose returns a judge of the given checkers, in order.
func Compose(checkers ...Checker) *Judge {
	j := &Judge{checkers: checkers}
	for _, c := range checkers {
		r := c.Reads()
		j.reads |= r
		for k := history.Kind(1); k < 64; k++ {
			if r.Has(k) {
				j.byKind[k] = append(j.byKind[k], c)
			}
		}
	}
	return j
}

// Reads is the union of what the checkers read.
func (j *Judge) Reads() history.Kinds { return j.reads }

// Begin starts a run for every checker.
func (j *Judge) Begin(s history.Setup, r history.Records) {
	for _, c := range j.checkers {
		c.Begin(s, r)
	}
}

// Observe hands e to the checkers that read its kind.
func (j *Judge) Observe(e *history.Event, rep history.Reporter) {
	for _, c := range j.byKind[e.Kind] {
		c.Observe(e, rep)
	}
}

// Select returns a judge of the named properties' checkers, in registry
// order (nil or empty names: every property), and the names of the
// selected properties still judged inside the driver (Property.Driver). An
// unknown name is an error naming it and listing the known ones.
func Select(names []string) (*Judge, []string, error) {
	want, err := Selection(names)
	if err != nil {
		return nil, nil, err
	}
	var checkers []Checker
	var driver []string
	seen := map[string]bool{}
	for _, p := range Registry {
		if !want(p.Name) {
			continue
		}
		if p.New == nil {
			driver = append(driver, p.Name)
			continue
		}
		if p.Family != "" {
			if seen[p.Family] {
				continue
			}
			seen[p.Family] = true
		}
		checkers = append(checkers, p.New(want))
	}
	return Compose(checkers...), driver, nil
}

// None is the selection of no property: only the driver's own failures.
const None = "none"

// Selection resolves a list of property names into a membership test: nil
// or empty selects every property, None (alone) none. An unknown name is an
// error naming it.
// The driver's own failures (Basis Driver: a panic, a deadlock, a hang, a
// timer the simulation cannot run) are always selected: a run that meets
// one cannot go on to judge anything else.
func Selection(names []string) (func(string) bool, error) {
	if len(names) == 0 {
		return func(string) bool { return true }, nil
	}
	set := make(map[string]bool, len(names))
	for _, p := range Registry {
		if p.Basis == Driver {
			set[p.Name] = true
		}
	}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == None && len(names) == 1 {
			break
		}
		if Lookup(n) == nil {
			known := make([]string, len(Registry))
			for i, p := range Registry {
				known[i] = p.Name
			}
			slices.Sort(known)
			return nil, fmt.Errorf("unknown property %q (known: %s)", n, strings.Join(known, ", "))
		}
		set[n] = true
	}
	return func(name string) bool { return set[name] }, nil
}
