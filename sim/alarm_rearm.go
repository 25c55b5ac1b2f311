package sim

import (
	"context"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
)

// The Waker lists the intent store through the fault wrapper
// (faults.Scheduler.List): a blocking point before the listing and after
// it, like every store call, so that a request can store an intent between
// the Waker's listing and what the Waker does with it. The Waker holds its
// arming lock across a re-arm's listing, so the host hands it a lock that
// parks actors (Runtime.NewMutex) instead of a sync.Mutex.
//
// What the Waker listed is an environment fact — what the store held when
// it read it — and the history records it (WakerListed): the judge takes
// its hand-overs from there, the intents of the listing the Waker computed
// the due set from, and whether each came back unchanged from the listing
// it took after the hand-over, not from listings of the host's own made
// at other moments (another actor may have written in between).

// timerListing is what the host keeps of one timer callback's Waker
// listings: whether it listed and whether the last listing failed
// (fireAlarm refuses a firing without a good one; spawnTimer snapshots the
// store for the judge only after a callback that listed).
type timerListing struct {
	n   int   // listings so far in this callback
	err error // the last one's
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
	switch _, lister := h.stores.inner.(scheduler.Lister); {
	case h.cfg.NoScheduler:
	case !lister:
		err = errNoLister
	default:
		intents, err = h.stores.sched.List(ctx)
		err = hostStoreError("intent store", "list", "", err)
	}
	if err != nil && h.alarm.err == nil {
		h.alarm.err = err
	}
	if t := h.alarm.timerListings[h.rt.current]; t != nil {
		t.n++
		t.err = err
		a := &history.Alarm{Began: at}
		if err != nil {
			a.Err = err.Error()
		}
		h.appendEvent(history.Event{Kind: history.WakerListed, Actor: h.rt.Actor(), Intents: intents, Alarm: a})
	}
	return intents, err
}

// rearmWaker re-arms the Waker and, when the re-arm returned without an
// error (it listed the store, or a firing in flight absorbed it), records
// the store record's mark at the call: every intent stored before it must
// now be served by the alarm (the judge's checkRearmed).
func (h *Host) rearmWaker() error {
	mark := h.stores.sched.Mark()
	err := h.alarm.waker.Rearm(h.ctx)
	if err == nil {
		h.appendEvent(history.Event{Kind: history.Rearmed, Actor: h.rt.Actor(), Alarm: &history.Alarm{Mark: mark}})
	}
	return err
}
