package sim

import (
	"context"
	"fmt"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
)

// The Waker lists the intent store through the fault wrapper
// (faults.Scheduler.List): a blocking point before the listing and after
// it, like every store call, so that a request can store an intent between
// the Waker's listing and what the Waker does with it. The Waker holds its
// arming lock across a re-arm's listing, so the host hands it a lock that
// parks actors (Runtime.NewMutex) instead of a sync.Mutex.
//
// What the Waker listed is an environment fact — what the store held when
// it read it — and the judge takes its hand-overs from there: the intents
// a firing handed over are those of the listing the Waker computed the due
// set from, and whether each came back unchanged is read from the listing
// it took after the hand-over, not from listings of the host's own made at
// other moments (another actor may have written in between).

// timerListing is what one timer callback's Waker listed, for the judge.
type timerListing struct {
	n       int                // listings so far in this callback
	intents []scheduler.Intent // the last one
	err     error
	at      time.Time // the clock as the last one began: the Waker's now, for the first
	// handed are the intents a firing of this callback handed over and
	// had accepted; settling: the next listing settles them.
	handed   []scheduler.Intent
	settling bool
}

// wakerLister is the store as the Waker lists it, and as the seed
// articles' host lists it when their store's alarm fires (ownerAlarm):
// every timer callback's listing is a blocking point on both sides.
type wakerLister struct{ h *Host }

func (l wakerLister) List(ctx context.Context) ([]scheduler.Intent, error) {
	h := l.h
	at := h.clock.Now()
	var intents []scheduler.Intent
	var err error
	switch _, lister := h.inner.(scheduler.Lister); {
	case h.cfg.NoScheduler:
	case !lister:
		err = errNoLister
	default:
		intents, err = h.sched.List(ctx)
		err = hostStoreError("intent store", "list", "", err)
	}
	if err != nil && h.alarmErr == nil {
		h.alarmErr = err
	}
	if t := h.timerListings[h.rt.current]; t != nil {
		t.n++
		t.intents, t.err, t.at = intents, err, at
		if t.settling && err == nil {
			h.oracleSettled = h.oracleSettled.Settle(t.handed, intents)
		}
		t.settling = false
	}
	return intents, err
}

// rearmWaker re-arms the Waker and, when the re-arm returned without an
// error (it listed the store, or a firing in flight absorbed it), notes
// that every intent stored before the call must now be served by the alarm
// (checkRearmed).
func (h *Host) rearmWaker() error {
	mark := h.sched.Mark()
	err := h.waker.Rearm(h.ctx)
	if err == nil {
		h.rearmedMark = max(h.rearmedMark, mark)
	}
	return err
}

// checkRearmed holds the Waker to the contract of Rearm: once a Rearm has
// returned, the alarm serves every intent that was stored before the call
// and is still stored unchanged — whether that Rearm listed the store
// itself or was absorbed by a firing in flight (the firing re-arms from
// the store when it ends). So right after a firing ends and at every check
// before the host re-arms, the alarm must be no later than any such intent
// that is live and that the judge has not settled (alarmLate). A Waker
// that re-arms from a listing older than such an intent leaves it
// stranded until something else re-arms; with no host re-arm at the check
// in production, for good.
//
// Which intents: those whose latest successful Schedule in this host
// incarnation's record came before the store record's mark at the call of
// a Rearm that has returned (rearmedMark), and those with no Schedule in
// the record (stored before the host started). An intent the host planted
// counts as written after every Rearm called before it (noteHostWrite).
// An intent stored after every returned Rearm began
// is nobody's yet: its writer may not have re-armed.
func (h *Host) checkRearmed(where string, intents []scheduler.Intent) {
	if h.waker == nil || h.owner != nil || h.violated != nil {
		return
	}
	h.readSchedules()
	var bound []scheduler.Intent
	for _, in := range intents {
		if h.lastSchedule[in.Backend] <= h.rearmedMark {
			bound = append(bound, in)
		}
	}
	at, ok := h.waker.Next()
	if d := h.alarmLate(bound, at, ok); d != "" {
		h.fail("alarm", fmt.Sprintf("%s, after every Rearm since the intent was stored had returned: %s", where, d))
	}
}

// readSchedules brings lastSchedule up to the end of the store record.
func (h *Host) readSchedules() {
	for _, c := range h.sched.CallsView(h.schedSeen) {
		if c.Op == faults.StoreOpSchedule && c.Err == "" {
			h.noteSchedule(c.Backend, c.Seq)
		}
	}
	h.schedSeen = h.sched.Mark()
}

func (h *Host) noteSchedule(backend string, seq int) {
	if h.lastSchedule == nil {
		h.lastSchedule = map[string]int{}
	}
	h.lastSchedule[backend] = seq
}

// noteHostWrite notes an intent the host stored itself (PlantIntent), past
// the record: written after every Rearm called so far, so the host's
// re-arm after it (at the check) is the first that must serve it.
func (h *Host) noteHostWrite(backend string) {
	h.readSchedules()
	h.noteSchedule(backend, h.sched.Mark()+1)
}

// forgetRearms starts a host incarnation's Rearm bookkeeping: its store
// record starts empty.
func (h *Host) forgetRearms() {
	h.rearmedMark, h.schedSeen = 0, 0
	clear(h.lastSchedule)
}
