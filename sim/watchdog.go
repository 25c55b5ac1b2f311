package sim

import (
	"fmt"
	"runtime"
	"time"
)

// DefaultWatchdog is how long a run may go without progress (a scheduling
// decision or a trace event) before Watch gives it up as a hang. A run
// takes about a millisecond and a single step at most a few hundred even
// with SQLite under -race, so ten seconds of wall time with nothing
// happening is not slowness: something blocked for real.
const DefaultWatchdog = 10 * time.Second

// maxStackBytes bounds the goroutine dump a hang or deadlock carries.
const maxStackBytes = 1 << 20

// Watch runs fn on a goroutine of its own and waits for it. It is the one
// place a run reads the wall clock, and nothing it sees reaches the trace.
// It returns true once fn has returned, or false once progress (read from
// this goroutine, so it must be safe for that) has not moved for timeout:
// fn's goroutine is then left behind, blocked wherever it was. timeout <= 0
// waits for fn without a watchdog.
func Watch(timeout time.Duration, progress func() uint64, fn func()) (finished bool) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	if timeout <= 0 {
		<-done
		return true
	}
	// Polling at a quarter of the timeout reports a hang between 1 and 1.25
	// timeouts after the last progress.
	tick := time.NewTicker(max(timeout/4, time.Millisecond))
	defer tick.Stop()
	last, still := progress(), time.Duration(0)
	for {
		select {
		case <-done:
			return true
		case <-tick.C:
			if now := progress(); now != last {
				last, still = now, 0
				continue
			}
			if still += max(timeout/4, time.Millisecond); still >= timeout {
				return false
			}
		}
	}
}

// Progress counts the run's scheduling decisions and trace events: a run
// that is alive moves it. Safe to call from any goroutine.
func (h *Host) Progress() uint64 { return h.rt.Progress() + h.events.Load() }

// Hang gives the run up after Watch found it stuck for timeout, and
// returns the violation: property hang, with every goroutine's stack. From
// now on any goroutine of the run that comes back freezes (it would race
// with the reader of the result). The trace gets the violation line, so its
// tail shows where the run stopped. Call it from the watching goroutine,
// after Watch returned false; Progress standing still is what orders the
// run's last writes before these reads.
func (h *Host) Hang(timeout time.Duration) *Violation {
	stacks := AllStacks() // first: Abandon sets the parked goroutines moving
	h.abandoned.Store(true)
	h.rt.Abandon()
	v := &Violation{
		Property: "hang",
		Detail: fmt.Sprintf("no scheduling decision and no trace event for %s of wall time: an actor is blocked outside the simulator "+
			"(a lock held across a blocking point, a store call that never returns); the run was abandoned, the stacks show where", timeout),
		At:     h.clock.Now().Sub(Epoch),
		Stacks: stacks,
	}
	if h.violated == nil {
		h.violated = v
		// The line leaves the timeout out: the same run hangs at the same
		// place whatever the watchdog waited.
		h.trace.Add(h.clock.Now(), "-", "violation", "property=hang", "detail="+oneWord("no progress: an actor is blocked outside the simulator"))
	}
	return v
}

// HangBeforeStart is the violation of a run that hung before its host was
// built (a store factory that never returns).
func HangBeforeStart(timeout time.Duration) *Violation {
	return &Violation{
		Property: "hang",
		Detail:   fmt.Sprintf("building the host made no progress for %s of wall time (a store factory that never returns?)", timeout),
		Stacks:   AllStacks(),
	}
}

// failDeadlock breaks no-deadlock, the deterministic counterpart of hang:
// every actor left is parked on a gate and nothing will open one (the
// runtime has nobody to run and no timer is due). The violation carries the
// goroutine stacks as a hang does.
func (h *Host) failDeadlock(detail string) *Violation {
	stacks := AllStacks()
	v := h.fail("no-deadlock", detail)
	if v.Property == "no-deadlock" && v.Stacks == "" {
		v.Stacks = stacks
	}
	return v
}

func (h *Host) freezeIfAbandoned() {
	if h.abandoned.Load() {
		runtime.Goexit()
	}
}

// AllStacks returns every goroutine's stack, cut at maxStackBytes.
func AllStacks() string {
	buf := make([]byte, maxStackBytes)
	return string(buf[:runtime.Stack(buf, true)])
}
