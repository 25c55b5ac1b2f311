package sim

import (
	"slices"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
)

// Local-store faults (faults.LocalStore) are environment facts like a
// runtime's: an injected failure of a local read or write fails the sync
// operation it happens in. The model learns of them the way it learns of
// runtime faults, from the record: withLocalFaults places each one among
// the actor's runtime calls, as a failed call at the position the runtime
// record had reached when it fired, so pullOutcome and readExec see a pull
// that failed there (and SummarisePulls a stream that failed, not one closed
// early).

// recordPos is how far backend's runtime record has got (the local-store
// wrapper stamps its faults with it).
func (h *Host) recordPos(backend string) int {
	if i := slices.Index(h.backends.names, backend); i >= 0 {
		return h.backends.containers[i].Mark()
	}
	return 0
}

// drainLocalFaults traces and counts the local-store faults injected since
// the last drain.
func (h *Host) drainLocalFaults() {
	for _, lf := range h.stores.local.Faults(h.records.localMark) {
		h.stats.Faults[faults.LocalIO.String()]++
		h.event(lf.Actor, "local", "op="+lf.Op, "backend="+lf.Backend, "fault="+faults.LocalIO.String(), "err="+oneWord(lf.Err))
	}
	h.records.localMark = h.stores.local.Mark()
}

// withLocalFaults returns calls (f's runtime calls, in order) with f's
// local-store faults inserted where they fired.
func (h *Host) withLocalFaults(calls []faults.Call, f finished) []faults.Call {
	for _, lf := range h.stores.local.Faults(f.localMark) {
		if lf.Actor != f.actor {
			continue
		}
		i := 0
		for i < len(calls) && calls[i].Seq <= lf.Pos {
			i++
		}
		c := faults.Call{Actor: lf.Actor, Op: faults.OpLocalStore, Fault: faults.LocalIO, Err: lf.Err, Stream: openStream(calls[:i])}
		calls = slices.Insert(calls, i, c)
	}
	return calls
}

// openStream is the change stream the calls left open: fetched, not yet
// at its end, failed or closed (0: none).
func openStream(calls []faults.Call) int {
	open := 0
	for _, c := range calls {
		switch {
		case c.Op == faults.OpFetch && c.Err == "" && c.Stream != 0:
			open = c.Stream
		case c.Stream == open && (c.Op == faults.OpStreamClose || c.Op == faults.OpStreamNext && (c.EOF || c.Err != "")):
			open = 0
		}
	}
	return open
}

// noteCut counts where a host restart cut the operations in flight: the
// blocking point the actor holding the baton stopped at, before its call
// (for the reachability table: a crash between a batch's apply and its
// cursor write is a cut at local.write-fetch-cursor-if-ahead), and records
// the cut (a step whose "cut" cancels an operation is not cut).
func (h *Host) noteCut(point string) {
	h.stats.Faults["cut@"+point]++
	h.cut.at = point
	if !h.cut.cancel {
		h.appendEvent(history.Event{Kind: history.StepCut, Point: point})
	}
}
