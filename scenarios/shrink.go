package scenarios

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// ShrinkOptions bound and shape one Shrink.
type ShrinkOptions struct {
	// Budget bounds the wall time shrinking may take (0: DefaultShrinkBudget).
	// It is a guard against a pathological scenario, not the usual stop:
	// when it cuts a shrink short the result depends on the machine's speed.
	// MaxRuns is the bound that keeps the result a function of the input.
	Budget time.Duration
	// MaxRuns bounds the runs of candidate scenarios (0: DefaultShrinkRuns).
	MaxRuns int
	// Run is passed to every Run. With Dir set, every run gets its own fresh
	// subdirectory of it, so a file-backed store never outlives its run.
	Run RunOptions
	// Clock reads the wall clock for Budget and ShrinkStats.Elapsed (nil:
	// time.Now). This is the one place in the harness where the wall clock
	// is allowed: it decides only when to give up, never what a candidate is
	// or whether it fails.
	Clock func() time.Time
}

// DefaultShrinkBudget and DefaultShrinkRuns are the bounds a zero
// ShrinkOptions gets. A run of a default-sized scenario takes about a
// millisecond, so the run bound is normally hit long before the time one.
const (
	DefaultShrinkBudget = 20 * time.Second
	DefaultShrinkRuns   = 5000
)

// maxShrinkRounds bounds the repetitions of the pass list. Every accepted
// candidate makes the scenario strictly smaller in a well-founded order
// (fewer steps, backends, writes, fault kinds, or shorter advances), so the
// fixed point comes first in practice; the bound only says so if it does not.
const maxShrinkRounds = 64

// ShrinkStats describes one Shrink.
type ShrinkStats struct {
	// StepsBefore and StepsAfter are Steps of the input's and result's ops.
	StepsBefore, StepsAfter int
	// Runs counts the scenarios actually run, the input's included
	// (candidates already seen or invalid are not run).
	Runs    int
	Elapsed time.Duration
	// Property is the violated property the result keeps.
	Property string
	// BudgetHit reports that Budget, MaxRuns or maxShrinkRounds stopped the
	// shrink before a fixed point: a smaller scenario may exist.
	BudgetHit bool
}

// String renders the stats on one line, for logs.
func (st ShrinkStats) String() string {
	s := fmt.Sprintf("property=%s steps=%d->%d runs=%d elapsed=%s", st.Property, st.StepsBefore, st.StepsAfter, st.Runs, st.Elapsed.Round(time.Millisecond))
	if st.BudgetHit {
		s += " budget-hit"
	}
	return s
}

// ErrNotFailing is returned (wrapped) by Shrink when the input does not
// violate the property it is asked to keep.
var ErrNotFailing = errors.New("scenarios: the scenario does not violate the property")

// Shrink returns a smaller scenario that still violates property ("" means
// whichever property s violates). It runs domain-aware passes to a fixed
// point (see shrinkPasses): drop a backend, drop chunks of ops, unwrap and
// thin groups, drop fault ops (in pairs, then alone), simplify ops, move ops
// to lower backends, merge and shorten advances, turn fault kinds off (or
// make a per-call kind certain), drop the batch budget and lower
// MaxAttempts, minimise the groups' schedules (fewer switches), and last
// drop an op under another small seed (reseedDrop: ops that only used up
// random draws can then go; skipped once schedules are written). Before the
// passes every group gets the schedule it ran under written in
// (shrink_schedule.go), so a race survives dropping ops and generator
// changes. Every candidate passes
// Validate; a candidate is accepted only when its run violates the same
// property. No randomness is involved, so unless Budget
// cuts it short the result depends only on s, property and MaxRuns.
//
// It returns an error wrapping ErrNotFailing when s does not violate
// property, s's Validate error when s is invalid, and a Run error (with the
// smallest scenario found so far) when a run could not be set up.
func Shrink(s Scenario, property string, o ShrinkOptions) (Scenario, ShrinkStats, error) {
	sh := newShrinker(o)
	st := ShrinkStats{StepsBefore: Steps(s.Ops), StepsAfter: Steps(s.Ops), Property: property}
	finish := func(best Scenario, err error) (Scenario, ShrinkStats, error) {
		st.StepsAfter = Steps(best.Ops)
		st.Runs = sh.runs
		st.Elapsed = sh.clock().Sub(sh.start)
		st.BudgetHit = sh.budgetHit
		if err == nil {
			err = sh.err
		}
		return best, st, err
	}
	if err := s.Validate(); err != nil {
		return finish(s, fmt.Errorf("scenarios: shrink: %w", err))
	}
	r, err := sh.run(s)
	if err != nil {
		return finish(s, err)
	}
	if r.Violation == nil || (property != "" && r.Violation.Property != property) {
		got := "none"
		if r.Violation != nil {
			got = r.Violation.Property
		}
		return finish(s, fmt.Errorf("%w: want %q, got %s", ErrNotFailing, property, got))
	}
	sh.property = r.Violation.Property
	st.Property = sh.property

	// A violation found before the fault-free tail is found the same way
	// without it, and the tail is most of a short run's cost. So when the
	// input fails without the tail, every candidate runs without it: a
	// candidate that fails so also fails with the tail (Run stops at the
	// first violation), so the result holds under the caller's options too.
	if !sh.opts.NoLiveness {
		sh.opts.NoLiveness = true
		if !sh.fails(s) {
			sh.opts.NoLiveness = false
			clear(sh.seen) // judged without the tail
		}
	}
	sh.seen[scenarioKey(s)] = true
	s = sh.withRecordedSchedules(s)

	best := sh.fixedPoint(s)
	best.Config.Steps = len(best.Ops) // Run ignores it; keep it honest for printing
	return finish(best, nil)
}

// shrinker is the state of one Shrink: the bounds, the run count and a
// memo of every candidate already judged (Run is deterministic, so a
// scenario judged once need not run again).
type shrinker struct {
	property  string
	opts      RunOptions
	budget    time.Duration
	maxRuns   int
	clock     func() time.Time
	start     time.Time
	runs      int
	budgetHit bool
	seen      map[string]bool
	err       error // the first Run error; stops the shrink
}

func newShrinker(o ShrinkOptions) *shrinker {
	sh := &shrinker{opts: o.Run, budget: o.Budget, maxRuns: o.MaxRuns, clock: o.Clock, seen: map[string]bool{}}
	if sh.budget <= 0 {
		sh.budget = DefaultShrinkBudget
	}
	if sh.maxRuns <= 0 {
		sh.maxRuns = DefaultShrinkRuns
	}
	if sh.clock == nil {
		sh.clock = time.Now
	}
	if sh.opts.TraceKeep == 0 {
		// The shrinker reads only the violation; a short ring saves memory.
		sh.opts.TraceKeep = 1
	}
	sh.start = sh.clock()
	return sh
}

// stopped reports whether a bound (or a Run error) ends the shrink.
func (sh *shrinker) stopped() bool {
	if sh.err != nil || sh.budgetHit {
		return true
	}
	if sh.runs >= sh.maxRuns || sh.clock().Sub(sh.start) >= sh.budget {
		sh.budgetHit = true
	}
	return sh.budgetHit
}

// run runs c once, in a fresh directory when the caller gave one.
func (sh *shrinker) run(c Scenario) (Result, error) {
	o := sh.opts
	if o.Dir != "" {
		d, err := os.MkdirTemp(o.Dir, "shrink-")
		if err != nil {
			return Result{}, fmt.Errorf("scenarios: shrink: %w", err)
		}
		defer os.RemoveAll(d)
		o.Dir = d
	}
	sh.runs++
	r, err := Run(c, o)
	if err != nil {
		return r, fmt.Errorf("scenarios: shrink: run %d: %w", sh.runs, err)
	}
	return r, nil
}

// fails reports whether candidate c is valid and its run violates the
// property being kept. Once a bound is hit every candidate is refused, so
// the passes wind down without running anything.
func (sh *shrinker) fails(c Scenario) bool {
	if c.Validate() != nil {
		return false
	}
	key := scenarioKey(c)
	if v, ok := sh.seen[key]; ok {
		return v
	}
	if sh.stopped() {
		return false
	}
	r, err := sh.run(c)
	if err != nil {
		sh.err = err
		return false
	}
	v := r.Violation != nil && r.Violation.Property == sh.property
	sh.seen[key] = v
	return v
}

// fixedPoint applies every pass in order until a whole round changes
// nothing or a bound is hit.
func (sh *shrinker) fixedPoint(s Scenario) Scenario {
	for round := 0; ; round++ {
		if round == maxShrinkRounds {
			sh.budgetHit = true
			return s
		}
		changed := false
		for _, pass := range shrinkPasses {
			var c bool
			s, c = pass.run(sh, s)
			changed = changed || c
		}
		if !changed || sh.stopped() {
			return s
		}
	}
}

// scenarioKey is the memo key of a scenario: everything Run reads.
func scenarioKey(s Scenario) string {
	var b strings.Builder
	b.WriteString(strconv.FormatUint(s.Seed, 10))
	fmt.Fprintf(&b, "|%d|%s|%s|%s|%+v|%d|%d|", s.Config.Backends, s.Config.Scheduler, s.Config.LocalStore, s.Config.Bug, s.Config.Retry, s.Config.MaxEntries, s.Config.MaxBytes)
	fmt.Fprintf(&b, "%d|%d|%d|%s|%s|%s|%s|", s.Config.PushEntries, s.Config.PushBytes, s.Config.MaxWallTime, s.Config.NoRuntimeID, s.Config.SyncNone, s.Config.Strategy, s.Config.BackendIDs)
	b.WriteString(s.Profile.String())
	for _, o := range s.Ops {
		b.WriteString("\n")
		b.WriteString(o.String())
	}
	return b.String()
}
