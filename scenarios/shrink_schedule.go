package scenarios

import (
	"slices"

	"strconv"
	"strings"

	"github.com/syncsim/syncsim/faults"
)

// Shrinking with schedules. Shrink first writes into every group the
// schedule it ran under (RecordSchedules), so a race no longer depends on
// the seed's strategy: dropping an op cannot move the interleaving of a
// group, and the passes need not reseed to keep a race. The schedule is then
// minimised like the ops: fewer switches first, then fewer listed choice
// points (an unlisted one lets the yielding actor go on).

// withRecordedSchedules returns s with every group's schedule written in,
// when that scenario still violates the property being kept (it replays the
// run exactly, so it should); else s unchanged.
func (sh *shrinker) withRecordedSchedules(s Scenario) Scenario {
	if sh.stopped() {
		return s
	}
	o := sh.opts
	o.RecordSchedules = true
	sh.runs++
	r, err := Run(s, o)
	if err != nil || r.Violation == nil || r.Violation.Property != sh.property {
		return s
	}
	rec := r.Recorded
	if !sh.fails(rec) {
		return s
	}
	return rec
}

// minimiseSchedules works on each group's schedule in turn: drop its tail
// run by run (the actor that yields goes on instead), delete one run (its
// choice points go to the actor running before it), and shorten runs.
func (sh *shrinker) minimiseSchedules(s Scenario) (Scenario, bool) {
	changed := false
	for i := range s.Ops {
		if s.Ops[i].Kind != OpGroup || len(s.Ops[i].Schedule) == 0 {
			continue
		}
		if sh.canonicalSchedule(&s, i) {
			changed = true
		}
		for _, edit := range []func([]scheduleRun) [][]scheduleRun{dropTailRuns, deleteRuns, shortenRuns} {
			for !sh.stopped() {
				accepted := false
				for _, runs := range edit(runsOf(s.Ops[i].Schedule)) {
					c := withSchedule(s, i, expand(runs))
					if sh.try(&s, c) {
						accepted, changed = true, true
						break
					}
				}
				if !accepted {
					break
				}
			}
		}
	}
	return s, changed
}

// canonicalSchedule rewrites group i's schedule as the names of the actors
// that actually ran at its choice points, as long as it is: an entry naming
// an actor that no longer exists (a member was dropped) becomes the actor
// the fallback rule ran, so the other passes can merge it. It is accepted
// only when it adds no switch, so the shrink still ends.
func (sh *shrinker) canonicalSchedule(s *Scenario, i int) bool {
	if sh.stopped() {
		return false
	}
	o := sh.opts
	o.RecordSchedules = true
	sh.runs++
	r, err := Run(*s, o)
	if err != nil {
		return false
	}
	written := s.Ops[i].Schedule
	ran := r.Recorded.Ops[i].Schedule
	c := slices.Clone(ran[:min(len(ran), len(written))])
	if slices.Equal(c, written) || Switches(c) > Switches(written) {
		return false
	}
	return sh.try(s, withSchedule(*s, i, nonNil(c)))
}

// withSchedule returns s with group i's schedule replaced.
func withSchedule(s Scenario, i int, schedule []string) Scenario {
	ops := cloneOps(s.Ops)
	ops[i].Schedule = schedule
	return withOps(s, ops)
}

// dropTailRuns: the schedule without its last run, then without its last
// half, then empty.
func dropTailRuns(runs []scheduleRun) [][]scheduleRun {
	if len(runs) == 0 {
		return nil
	}
	out := [][]scheduleRun{{}, runs[:len(runs)/2]}
	if len(runs) > 1 {
		out = append(out, runs[:len(runs)-1])
	}
	return out
}

// deleteRuns: for each run, the schedule without it, its neighbours merged
// when they name the same actor (one switch, often two, fewer).
func deleteRuns(runs []scheduleRun) [][]scheduleRun {
	var out [][]scheduleRun
	for j := range runs {
		c := slices.Delete(slices.Clone(runs), j, j+1)
		out = append(out, runsOf(expand(c)))
	}
	return out
}

// shortenRuns: for each run longer than one, the schedule with that run one
// choice point shorter.
func shortenRuns(runs []scheduleRun) [][]scheduleRun {
	var out [][]scheduleRun
	for j, r := range runs {
		if r.count > 1 {
			c := slices.Clone(runs)
			c[j].count--
			out = append(out, c)
		}
	}
	return out
}

// scheduleWithoutBackend renames a schedule's actors after backend b is
// dropped and the ones above it renumbered down (exec.b2 becomes exec.b1);
// b's own actors keep their names and, gone, no longer match.
func scheduleWithoutBackend(schedule []string, b int) []string {
	if schedule == nil {
		return nil
	}
	out := make([]string, len(schedule))
	for i, n := range schedule {
		out[i] = n
		base, suffix, _ := strings.Cut(n, "/")
		dot := strings.LastIndex(base, ".b")
		if dot < 0 {
			continue
		}
		k, err := strconv.Atoi(base[dot+2:])
		if err != nil || k <= b {
			continue
		}
		out[i] = base[:dot] + ".b" + strconv.Itoa(k-1)
		if suffix != "" {
			out[i] += "/" + suffix
		}
	}
	return out
}

// maxScheduleShift bounds how far shiftDrop moves a group's first switch.
const maxScheduleShift = 12

// shiftDrop makes one edit before a scheduled group — drop a top-level op,
// or turn one fault kind off — and moves the group's first switch by up to
// maxScheduleShift choice points either way. Such an edit can change how
// many choice points an actor of the group takes before the one that
// matters (a backend already connected skips its connect's calls, a fault
// no longer drawn skips a reconnect), so the race is still there, a few
// points earlier or later: no single-edit pass reaches it. Nearest shifts
// first, earlier before later, so the result is deterministic.
func (sh *shrinker) shiftDrop(s Scenario) (Scenario, bool) {
	g := slices.IndexFunc(s.Ops, func(o Op) bool { return o.Kind == OpGroup && len(o.Schedule) > 0 })
	if g < 0 {
		return s, false
	}
	type edit struct {
		c Scenario
		g int // the group's index in c
	}
	var edits []edit
	for i := g - 1; i >= 0; i-- {
		edits = append(edits, edit{withOps(s, slices.Delete(cloneOps(s.Ops), i, i+1)), g - 1})
	}
	for _, k := range faults.Kinds() {
		if s.Profile.On(k) {
			c := withOps(s, cloneOps(s.Ops))
			c.Profile.Set(k, 0)
			edits = append(edits, edit{c, g})
		}
	}
	runs := runsOf(s.Ops[g].Schedule)
	for _, e := range edits {
		for d := 1; d <= maxScheduleShift && !sh.stopped(); d++ {
			for _, delta := range []int{-d, d} {
				if runs[0].count+delta < 1 {
					continue
				}
				shifted := slices.Clone(runs)
				shifted[0].count += delta
				c := e.c
				c.Ops = cloneOps(e.c.Ops)
				c.Ops[e.g].Schedule = expand(shifted)
				if sh.try(&s, c) {
					return s, true
				}
			}
		}
	}
	return s, false
}
