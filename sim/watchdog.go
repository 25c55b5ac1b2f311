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
	return WatchRun(timeout, func() Watched { return progressOnly(progress) }, fn)
}

// Watched is a run as its watchdog reads it, from the watchdog's goroutine;
// *Host is one.
type Watched interface {
	// Progress moves with every scheduling decision and trace event.
	Progress() uint64
	// Finished moves whenever an actor finishes or a Run begins or returns.
	Finished() uint64
	// StopLivelock asks the run to end as property livelock at its next
	// scheduling decision, unless Finished has moved past seen by then.
	StopLivelock(seen uint64, stalled time.Duration)
}

// WatchRun is Watch for a run that can also livelock; run returns the run
// as it stands (nil until it exists). Progress standing still for timeout
// is a hang, as for Watch. Progress moving while Finished stands still for
// timeout is a livelock the runtime's own bound has not reached (its
// decisions are slow): WatchRun asks the run to stop as one and waits on,
// and the run ends at its next decision with the violation. A run that
// still finishes nothing a timeout later is given up as a hang.
func WatchRun(timeout time.Duration, run func() Watched, fn func()) (finished bool) {
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
	period := max(timeout/4, time.Millisecond)
	tick := time.NewTicker(period)
	defer tick.Stop()
	var busy, ended stillness
	asked := false
	for {
		select {
		case <-done:
			return true
		case <-tick.C:
		}
		w := run()
		var progress, finished uint64
		if w != nil {
			progress, finished = w.Progress(), w.Finished()
		}
		if busy.add(progress, period) >= timeout {
			return false
		}
		quiet := ended.add(finished, period)
		switch {
		case quiet == 0:
			asked = false
		case w == nil || quiet < timeout:
		case !asked:
			w.StopLivelock(finished, quiet)
			asked = true
		case quiet >= 2*timeout:
			return false // the request went unheard: nothing reaches a decision
		}
	}
}

// stillness is how long a counter has stood still, in polling periods.
type stillness struct {
	last  uint64
	still time.Duration
}

// add takes a new reading after one more period and returns how long the
// counter has stood still (0: it moved).
func (s *stillness) add(now uint64, period time.Duration) time.Duration {
	if now != s.last {
		s.last, s.still = now, 0
		return 0
	}
	s.still += period
	return s.still
}

// progressOnly watches a progress counter alone: it never livelocks.
type progressOnly func() uint64

func (p progressOnly) Progress() uint64                   { return p() }
func (p progressOnly) Finished() uint64                   { return p() }
func (p progressOnly) StopLivelock(uint64, time.Duration) {}

// Progress counts the run's scheduling decisions and trace events: a run
// that is alive moves it. Safe to call from any goroutine.
func (h *Host) Progress() uint64 { return h.rt.Progress() + h.progress.events.Load() }

// Finished moves whenever an actor of the run finishes or a Run of its
// actors begins or returns (Watched). Safe to call from any goroutine.
func (h *Host) Finished() uint64 { return h.rt.Finished() }

// StopLivelock asks the run to end as property livelock (Watched). Safe to
// call from any goroutine.
func (h *Host) StopLivelock(seen uint64, stalled time.Duration) { h.rt.StopLivelock(seen, stalled) }

// Hang gives the run up after Watch found it stuck for timeout, and
// returns the violation: property hang, with every goroutine's stack. From
// now on any goroutine of the run that comes back freezes (it would race
// with the reader of the result). The hang is a failure of the run itself
// (a DriverFailed event, which oracle.DriverChecker reports), appended
// before the run is abandoned: from then on a call into the host freezes
// its goroutine, this one's too. Its detail leaves the timeout out, so the
// trace's violation line is the same whatever the watchdog waited; the
// violation returned says it. A run that broke a property before it hung
// keeps that violation. Call it from the watching goroutine, after Watch
// returned false; Progress standing still is what orders the run's last
// writes before these reads.
func (h *Host) Hang(timeout time.Duration) *Violation {
	stacks := AllStacks() // first: Abandon sets the parked goroutines moving
	v := h.driverFailed("hang", "no progress: an actor is blocked outside the simulator")
	h.progress.abandoned.Store(true)
	h.rt.Abandon()
	if v.Property == "hang" {
		v.Detail = fmt.Sprintf("no scheduling decision and no trace event for %s of wall time: an actor is blocked outside the simulator "+
			"(a lock held across a blocking point, a store call that never returns); the run was abandoned, the stacks show where", timeout)
		v.Stacks = stacks
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
	v := h.driverFailed("no-deadlock", detail)
	if v.Property == "no-deadlock" && v.Stacks == "" {
		v.Stacks = stacks
	}
	return v
}

func (h *Host) freezeIfAbandoned() {
	if h.progress.abandoned.Load() {
		runtime.Goexit()
	}
}

// AllStacks returns every goroutine's stack, cut at maxStackBytes.
func AllStacks() string {
	buf := make([]byte, maxStackBytes)
	return string(buf[:runtime.Stack(buf, true)])
}
