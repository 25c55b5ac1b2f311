package sim

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// A livelock is a Run whose actors keep switching while none of them
// finishes: a pull that never reaches the end of its stream, two actors
// waking each other forever. Every decision is a scheduling decision, so
// the hang watchdog (nothing moves) never fires, and the switch bound of a
// Run (DefaultMaxSwitches) comes only after a million decisions, each
// with its trace line and record: tens of seconds, and the record it
// leaves takes the host longer still to read. The runtime therefore
// counts the decisions since an actor last finished (or the Run began)
// and ends the Run as a livelock past a bound: deterministic, so the seed
// replays to the same verdict. A livelock whose decisions are slow
// (a store call that takes seconds) may not reach the bound within the
// watchdog's time; the watchdog then asks the run to stop as a livelock
// itself (Watch), a verdict of the wall clock like hang.

// DefaultLivelockSwitches is the livelock bound of a new Runtime: the
// scheduling decisions without any actor finishing that end a Run. A
// generated scenario takes at most 531 (20,000 seeds: a pull burst of 257
// entries is two blocking points an entry), so a hand-written pull of
// some fifty thousand entries still fits, and a livelock reaches it in
// about a second.
const DefaultLivelockSwitches = 100_000

// ErrLivelock: a Run's actors kept switching while none finished
// (*LivelockError).
var ErrLivelock = errors.New("sim: livelock")

// LivelockError is the verdict on a livelocked Run: how long it went
// without an actor finishing, and where every live actor was.
type LivelockError struct {
	// Switches is the scheduling decisions taken since an actor last
	// finished or the Run began.
	Switches int
	// Stalled is non-zero when the watchdog gave the verdict: the wall
	// time for which no actor finished (see Watch).
	Stalled time.Duration
	// Actors are the live actors, in spawn order.
	Actors []ActorAt
}

// ActorAt is where a live actor stood when a livelock was found.
type ActorAt struct {
	Name string
	// State is "running" (the actor that took the last decision),
	// "runnable", "parked" or "new" (never started).
	State string
	// Point is its last blocking point: a Block point, or "gate" while it
	// parks ("" when it never ran).
	Point string
	// Blocks counts its blocking points since an actor last finished or
	// the Run began.
	Blocks uint64
}

// livelockWall starts the detail of a livelock the watchdog found.
const livelockWall = "no actor finished for "

// Detail describes the livelock in one line, actors included.
func (e *LivelockError) Detail() string {
	var b strings.Builder
	if e.Stalled > 0 {
		fmt.Fprintf(&b, "%s%s of wall time while actors took %d scheduling decisions (the watchdog's verdict)",
			livelockWall, e.Stalled, e.Switches)
	} else {
		fmt.Fprintf(&b, "%d scheduling decisions and no actor finished (the livelock bound)", e.Switches)
	}
	b.WriteString("; actors:")
	for i, a := range e.Actors {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(" " + a.Name + " " + a.State)
		if a.Point != "" {
			b.WriteString(" at " + a.Point)
		}
		b.WriteString(" (" + strconv.FormatUint(a.Blocks, 10) + " blocking points)")
	}
	return b.String()
}

// Error is "sim: livelock: " and the Detail.
func (e *LivelockError) Error() string { return "sim: livelock: " + e.Detail() }

// Is makes errors.Is(err, ErrLivelock) hold.
func (e *LivelockError) Is(target error) bool { return target == ErrLivelock }

// SetLivelockSwitches sets the livelock bound of every later Run (n <= 0:
// none): at its n-th decision without any actor finishing, Run ends with a
// *LivelockError.
func (r *Runtime) SetLivelockSwitches(n int) { r.livelockAt = n }

// OnLivelock sets a hook told of a livelock as it is found, on the
// goroutine holding the baton, before the Run unwinds its actors (their
// stacks still show the loop). Run returns the same error afterwards.
func (r *Runtime) OnLivelock(fn func(*LivelockError)) { r.onLivelock = fn }

// Finished moves whenever an actor finishes and whenever a Run begins or
// returns: a run whose Progress moves while Finished stands still is
// switching without getting anywhere. Safe to call from any goroutine.
func (r *Runtime) Finished() uint64 { return r.finished.Load() }

// StopLivelock asks the Run in progress to end as a livelock at its next
// scheduling decision, with stalled as the wall time no actor finished
// for, unless Finished has moved past seen by then (the stall is over).
// Safe to call from any goroutine: the watchdog's way into the run.
func (r *Runtime) StopLivelock(seen uint64, stalled time.Duration) {
	r.stallFor.Store(int64(stalled))
	r.stallSeen.Store(seen + 1) // 0 means no request
}

// livelocked reports whether this decision ends the Run as a livelock:
// the bound is passed, or the watchdog asked and nothing finished since.
func (r *Runtime) livelocked() bool {
	if r.livelockAt > 0 && r.quiet >= r.livelockAt {
		return true
	}
	req := r.stallSeen.Load()
	if req == 0 {
		return false
	}
	if req-1 == r.finished.Load() {
		return true
	}
	r.stallSeen.CompareAndSwap(req, 0) // stale: something finished since
	return false
}

// livelock builds the verdict, tells the hook and makes it the Run's
// error; running is the actor that took the decision (nil: the driver).
func (r *Runtime) livelock(running *actor) {
	e := &LivelockError{Switches: r.quiet}
	if r.stallSeen.Swap(0) != 0 && !(r.livelockAt > 0 && r.quiet >= r.livelockAt) {
		e.Stalled = time.Duration(r.stallFor.Load())
	}
	for _, a := range r.live {
		at := ActorAt{Name: a.name, Point: a.point, Blocks: a.blocks - a.blocksMark}
		switch {
		case a.state == actorParked:
			at.State = "parked"
		case a == running:
			at.State = "running"
		case a.state == actorNew:
			at.State = "new"
		default:
			at.State = "runnable"
		}
		e.Actors = append(e.Actors, at)
	}
	r.err = e
	if r.onLivelock != nil {
		r.onLivelock(e)
	}
}

// quietAgain restarts the count of decisions without a finished actor.
func (r *Runtime) quietAgain() {
	r.quiet = 0
	for _, a := range r.live {
		a.blocksMark = a.blocks
	}
	r.finished.Add(1)
}

// failLivelock breaks property livelock (the runtime's OnLivelock hook),
// with the goroutine stacks of the moment: the running actor's shows the
// loop. A verdict of the watchdog is a wall-clock one, like hang.
func (h *Host) failLivelock(e *LivelockError) {
	stacks := AllStacks()
	if v := h.driverFailed("livelock", e.Detail()); v.Property == "livelock" && v.Stacks == "" {
		v.Stacks = stacks
	}
}

// FromWatchdog reports whether the wall-clock watchdog gave the verdict v
// (a hang, or a livelock found before the livelock bound): the same seed
// may end elsewhere when run again, so it is neither re-run for
// determinism nor shrunk.
func (v *Violation) FromWatchdog() bool {
	return v.Property == "hang" || v.Property == "livelock" && strings.HasPrefix(v.Detail, livelockWall)
}
