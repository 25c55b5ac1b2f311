package scenarios

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/syncsim/syncsim/sim"
)

// Schedules in the scenario file. A group may end with a schedule line: the
// actor to run at each choice point of the group's step (a scheduling
// decision with more than one runnable actor, before a call or right after
// one returned), by local name — the actor's
// name in the trace without its "#N." prefix: exec.b0, retry.b1, write.b0,
// delete.b0 (a write op with delete),
// tick (an advance in flight), alarm.b1 (a retry the alarm started inside
// the group), with "/2", "/3" for the second and third actor of one name.
// A run of one actor is written name*count. With a host-restart member,
// cut=N says after how many scheduling decisions (choice points or not;
// those right after a call returned are not counted) the restart cuts the
// group, or cut-local=N after how many calls into the workspace's local
// store; with a cancel member, cancel=NAME@N says that the cancel landed at
// the N-th scheduling decision (counted the same way), on the operation NAME.
//
//	group
//	  exec b0 wait writes=0
//	  advance 1s
//	  schedule exec.b0*4 tick exec.b0
//	end
//
// A group with a schedule replays it exactly whatever the seed's strategy:
// at each choice point the named actor runs; when the schedule is used up,
// or names an actor that is not runnable, the actor that yields goes on
// (else the earliest spawned), a rule with no random draw. So a schedule
// lists decisions up to its last preemption and no further. Run records
// schedules (RunOptions.RecordSchedules), and Shrink keeps them and
// minimises their switches.

// scheduleWord starts a group's schedule line.
const scheduleWord = "schedule"

// maxScheduleLen bounds the choice points a schedule may list (a typo such
// as name*99999999 must not allocate without bound).
const maxScheduleLen = 1 << 16

// scheduleRun is count consecutive choice points given to one actor.
type scheduleRun struct {
	actor string
	count int
}

// runsOf compresses a schedule into runs of one actor.
func runsOf(schedule []string) []scheduleRun {
	var out []scheduleRun
	for _, n := range schedule {
		if len(out) > 0 && out[len(out)-1].actor == n {
			out[len(out)-1].count++
			continue
		}
		out = append(out, scheduleRun{n, 1})
	}
	return out
}

// expand is the inverse of runsOf (never nil, so that an empty written
// schedule stays written).
func expand(runs []scheduleRun) []string {
	out := []string{}
	for _, r := range runs {
		for range r.count {
			out = append(out, r.actor)
		}
	}
	return out
}

// Switches counts the preemptions a schedule asks for: the choice points
// at which the chosen actor differs from the one chosen before.
func Switches(schedule []string) int { return max(len(runsOf(schedule))-1, 0) }

// formatSchedule prints a schedule line (without indentation).
func formatSchedule(o Op) string {
	var b strings.Builder
	b.WriteString(scheduleWord)
	for _, r := range runsOf(o.Schedule) {
		b.WriteString(" " + r.actor)
		if r.count > 1 {
			b.WriteString("*" + strconv.Itoa(r.count))
		}
	}
	if o.Cut > 0 {
		b.WriteString(" cut=" + strconv.Itoa(o.Cut))
	}
	if o.CutLocal > 0 {
		b.WriteString(" " + cutLocalWord + strconv.Itoa(o.CutLocal))
	}
	if o.Cancel.Decision > 0 {
		b.WriteString(" " + cancelWord + o.Cancel.Actor + "@" + strconv.Itoa(o.Cancel.Decision))
	}
	return b.String()
}

// cancelWord starts a schedule's written cancel, cutLocalWord its host
// restart counted in local-store calls.
const (
	cancelWord   = "cancel="
	cutLocalWord = "cut-local="
)

// parsedSchedule is a schedule line's content: how a group ran.
type parsedSchedule struct {
	schedule []string
	cut      int
	cutLocal int
	cancel   sim.CancelPoint
}

// parseCancel reads NAME@N after "cancel=".
func parseCancel(v string) (sim.CancelPoint, error) {
	name, at, ok := strings.Cut(v, "@")
	if !ok {
		return sim.CancelPoint{}, fmt.Errorf("%s%s: want %sNAME@DECISION (the operation's local name, the decision it landed at)", cancelWord, v, cancelWord)
	}
	if err := checkActorName(name); err != nil {
		return sim.CancelPoint{}, fmt.Errorf("%s%s: %v", cancelWord, v, err)
	}
	n, err := intIn(at, 1, maxScheduleLen)
	if err != nil {
		return sim.CancelPoint{}, fmt.Errorf("%s%s: decision %v", cancelWord, v, err)
	}
	return sim.CancelPoint{Decision: n, Actor: name}, nil
}

// parseSchedule reads the words after "schedule".
func parseSchedule(words []string) (parsedSchedule, error) {
	schedule, cut, cutLocal, cancel := []string{}, 0, 0, sim.CancelPoint{}
	for _, w := range words {
		if v, ok := strings.CutPrefix(w, cutLocalWord); ok {
			if cutLocal > 0 {
				return parsedSchedule{}, fmt.Errorf("%q given twice", cutLocalWord)
			}
			n, err := intIn(v, 1, maxScheduleLen)
			if err != nil {
				return parsedSchedule{}, fmt.Errorf("%s%s: %v", cutLocalWord, v, err)
			}
			cutLocal = n
			continue
		}
		if v, ok := strings.CutPrefix(w, cancelWord); ok {
			if cancel.Decision > 0 {
				return parsedSchedule{}, fmt.Errorf("%q given twice", cancelWord)
			}
			c, err := parseCancel(v)
			if err != nil {
				return parsedSchedule{}, err
			}
			cancel = c
			continue
		}
		if v, ok := strings.CutPrefix(w, "cut="); ok {
			if cut > 0 {
				return parsedSchedule{}, errors.New(`"cut=" given twice`)
			}
			n, err := intIn(v, 1, maxScheduleLen)
			if err != nil {
				return parsedSchedule{}, fmt.Errorf("cut=%s: %v", v, err)
			}
			cut = n
			continue
		}
		name, count, hasCount := strings.Cut(w, "*")
		n := 1
		if hasCount {
			var err error
			if n, err = intIn(count, 1, maxScheduleLen); err != nil {
				return parsedSchedule{}, fmt.Errorf("%s: count %v", w, err)
			}
		}
		if err := checkActorName(name); err != nil {
			return parsedSchedule{}, err
		}
		if len(schedule)+n > maxScheduleLen {
			return parsedSchedule{}, fmt.Errorf("schedule longer than %d choice points", maxScheduleLen)
		}
		for range n {
			schedule = append(schedule, name)
		}
	}
	return parsedSchedule{schedule, cut, cutLocal, cancel}, nil
}

// checkActorName accepts a local actor name: letters, digits, '.', '/', '-'.
func checkActorName(name string) error {
	if name == "" {
		return errors.New("empty actor name in schedule (write name or name*count)")
	}
	for _, c := range name {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '/' || c == '-'
		if !ok {
			return fmt.Errorf("actor name %q in schedule: want letters, digits, '.', '/' or '-' (a local name such as exec.b0 or tick)", name)
		}
	}
	return nil
}

// validateSchedule checks an op's schedule fields: only groups have them,
// and cut only with a host-restart member.
func validateSchedule(o Op) error {
	if o.Kind != OpGroup {
		if o.landed() || o.Cut != 0 || o.CutLocal != 0 || o.Cancel != (sim.CancelPoint{}) {
			return errors.New("only a group has a schedule")
		}
		return nil
	}
	if len(o.Schedule) > maxScheduleLen {
		return fmt.Errorf("schedule longer than %d choice points", maxScheduleLen)
	}
	for _, n := range o.Schedule {
		if err := checkActorName(n); err != nil {
			return err
		}
	}
	if o.Cut < 0 || o.Cut > maxScheduleLen {
		return fmt.Errorf("cut=%d out of range [1, %d]", o.Cut, maxScheduleLen)
	}
	if o.CutLocal < 0 || o.CutLocal > maxScheduleLen {
		return fmt.Errorf("%s%d out of range [1, %d]", cutLocalWord, o.CutLocal, maxScheduleLen)
	}
	if (o.Cut > 0 || o.CutLocal > 0) && !hasMember(o, OpHostRestart) {
		return errors.New("cut= and cut-local= need a host-restart in the group")
	}
	if o.Cut > 0 && o.CutLocal > 0 {
		return errors.New("cut= and cut-local= both given: a restart cuts once")
	}
	if c := o.Cancel; c != (sim.CancelPoint{}) {
		if !hasMember(o, OpCancel) {
			return errors.New(cancelWord + " needs a cancel in the group")
		}
		if c.Decision < 1 || c.Decision > maxScheduleLen {
			return fmt.Errorf("%s%s@%d: decision out of range [1, %d]", cancelWord, c.Actor, c.Decision, maxScheduleLen)
		}
		if err := checkActorName(c.Actor); err != nil {
			return err
		}
	}
	return nil
}

func hasMember(o Op, k OpKind) bool {
	for _, m := range o.Ops {
		if m.Kind == k {
			return true
		}
	}
	return false
}

// HasSchedule reports whether any group of ops has a written schedule.
func HasSchedule(ops []Op) bool {
	for _, o := range ops {
		if o.Kind == OpGroup && o.Schedule != nil {
			return true
		}
	}
	return false
}

// opKeys names every top-level op for its per-op random streams (see
// sim.Host.SetOp): the op's text without its schedule, and how many
// identical ops came before it. Dropping, adding or editing another op
// leaves the key, and so every draw of this op, unchanged; writing a
// schedule into a group leaves its fault draws unchanged too, which is why
// a recorded schedule replays its run exactly.
func opKeys(ops []Op) []string {
	seen := map[string]int{}
	keys := make([]string, len(ops))
	for i, o := range ops {
		o = o.withLanding(parsedSchedule{})
		t := strings.ReplaceAll(o.String(), "\n", ";")
		seen[t]++
		keys[i] = t + "#" + strconv.Itoa(seen[t])
	}
	return keys
}
