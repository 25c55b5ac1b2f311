package oracle

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

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
	// byKind[k] lists the checkers that read kind k, by index.
	byKind [64][]int
	// names[i] names checker i in a cost report (its property or family).
	names []string
	// clock, when set, times every Observe into spent (Costing).
	clock func() time.Duration
	spent []time.Duration
	calls []int
}

// Compose returns a judge of the given checkers, in order.
func Compose(checkers ...Checker) *Judge {
	j := &Judge{checkers: checkers}
	for i, c := range checkers {
		r := c.Reads()
		j.reads |= r
		for k := history.Kind(1); k < 64; k++ {
			if r.Has(k) {
				j.byKind[k] = append(j.byKind[k], i)
			}
		}
	}
	return j
}

// Cost is what one checker spent judging: the CPU time its Observe calls
// took, on the clock Costing was given, and how many there were.
type Cost struct {
	Name  string // the property, or the family, it judges
	CPU   time.Duration
	Calls int
}

// Costing makes the judge time every Observe call of every checker with
// clock (monotonic: the caller's goroutine runs the checker), for Costs. It costs two clock reads a call: a measuring mode.
func (j *Judge) Costing(clock func() time.Duration) {
	j.clock = clock
	j.spent = make([]time.Duration, len(j.checkers))
	j.calls = make([]int, len(j.checkers))
}

// Costs returns what every checker spent since Costing, in order, each
// named by the property or family it judges (Select), or else by its type.
func (j *Judge) Costs() []Cost {
	out := make([]Cost, len(j.spent))
	for i := range j.spent {
		name := fmt.Sprintf("%T", j.checkers[i])
		if i < len(j.names) {
			name = j.names[i]
		}
		out[i] = Cost{Name: name, CPU: j.spent[i], Calls: j.calls[i]}
	}
	return out
}

// Reads is the union of what the checkers read.
func (j *Judge) Reads() history.Kinds { return j.reads }

// Snapshots is the union of the snapshots the checkers ask for
// (history.Snapshotter).
func (j *Judge) Snapshots() history.Snapshots {
	var s history.Snapshots
	for _, c := range j.checkers {
		if sn, ok := c.(history.Snapshotter); ok {
			s |= sn.Snapshots()
		}
	}
	return s
}

// Begin starts a run for every checker.
func (j *Judge) Begin(s history.Setup, r history.Records) {
	for _, c := range j.checkers {
		c.Begin(s, r)
	}
}

// Observe hands e to the checkers that read its kind.
func (j *Judge) Observe(e *history.Event, rep history.Reporter) {
	if j.clock != nil {
		j.observeCosted(e, rep)
		return
	}
	for _, i := range j.byKind[e.Kind] {
		j.checkers[i].Observe(e, rep)
	}
}

func (j *Judge) observeCosted(e *history.Event, rep history.Reporter) {
	for _, i := range j.byKind[e.Kind] {
		t0 := j.clock()
		j.checkers[i].Observe(e, rep)
		j.spent[i] += j.clock() - t0
		j.calls[i]++
	}
}

// Select returns a judge of the named properties' checkers, in registry
// order (nil or empty names: every property). An unknown name is an error
// naming it and listing the known ones.
func Select(selected []string) (*Judge, error) {
	want, err := Selection(selected)
	if err != nil {
		return nil, err
	}
	var checkers []Checker
	var names []string
	seen := map[string]bool{}
	for _, p := range Registry {
		if !want(p.Name) || p.New == nil {
			continue
		}
		if p.Family != "" {
			if seen[p.Family] {
				continue
			}
			seen[p.Family] = true
		}
		checkers = append(checkers, p.New(want))
		names = append(names, cmp.Or(p.Family, p.Name))
	}
	j := Compose(checkers...)
	j.names = names
	return j, nil
}

// All returns a judge of every property, fresh for one run: what a Host
// built by hand reads its run with (sim.Config.Judge).
func All() *Judge {
	j, err := Select(nil)
	if err != nil {
		panic("oracle: the registry does not select itself: " + err.Error())
	}
	return j
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
