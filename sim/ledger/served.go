package ledger

import (
	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
)

// Served remembers, per backend, every entry cursor a stream has
// served, so that an entry served for the first time is known to carry
// content the host has never seen: every file a command writes names its
// process and command number, so its content is new, and applying it must
// count (SPEC 6.7: only a write whose content already matches does not).
// The zero value is ready; backends are indexed from 0.
type Served struct {
	seen  []map[scheduler.Cursor]bool
	epoch []int
	// fresh holds the Seq of each stream-next call of the last drain that
	// served an entry for the first time; moved marks backends whose log
	// was replaced or cut during it, where the ledger proves nothing.
	fresh []map[int]bool
	moved []bool
}

// Note reads backend b's newly drained calls, in order; epoch is the
// container's log epoch (faults.Container.LogEpoch) after them. The ledger
// forgets at a new log only: after a lost identity the same log serves the
// same content.
func (l *Served) Note(b, epoch int, calls []faults.Call) {
	for len(l.seen) <= b {
		l.seen = append(l.seen, map[scheduler.Cursor]bool{})
		l.epoch = append(l.epoch, 0)
		l.fresh = append(l.fresh, map[int]bool{})
		l.moved = append(l.moved, false)
	}
	clear(l.fresh[b])
	l.moved[b] = epoch != l.epoch[b]
	if l.moved[b] {
		// A new log may reuse cursors for new content: forget the old one.
		// Entries served before the change in this drain are noted too,
		// which can only make a later lower bound lower.
		clear(l.seen[b])
		l.epoch[b] = epoch
	}
	for _, c := range calls {
		if c.Op == faults.OpStreamNext && c.Entry != nil && c.Err == "" && !l.seen[b][*c.Entry] {
			l.seen[b][*c.Entry] = true
			l.fresh[b][c.Seq] = true
		}
	}
}

// HasMoved reports whether backend b's log was replaced or cut during the
// last drain (true for a backend never drained: nothing is known).
func (l *Served) HasMoved(b int) bool { return b >= len(l.moved) || l.moved[b] }

// IsFresh reports whether the call with Seq seq of backend b's last drain
// served an entry for the first time.
func (l *Served) IsFresh(b, seq int) bool { return b < len(l.fresh) && l.fresh[b][seq] }

// AppliedBounds is the range Applied of a complete pull on backend b must
// fall in, given the pulling actor's calls of the last drain: at most every
// entry the actor was served (hi), at least the entries its last stream
// served for the first time (lo, known only when the backend's log held
// still and the last pass was not replayed).
func (l *Served) AppliedBounds(b int, calls []faults.Call) (lo, hi int, loKnown bool) {
	lastStream, failedAfter := 0, false
	for _, c := range calls {
		if c.Op == faults.OpStreamNext && c.Entry != nil && c.Err == "" {
			hi++
		}
		if c.Op == faults.OpFetch && c.Err == "" && c.Stream != 0 {
			lastStream, failedAfter = c.Stream, false
		} else if c.Err != "" && c.Op != faults.OpStreamClose {
			failedAfter = true
		}
	}
	// A pass that failed after its last fetch was replayed, and the replay
	// made no fetch of its own (a cursor already at a target with a path
	// completes without one, SPEC 6.4 step 1): the result is the replay's,
	// and what the failed pass applied is not in it.
	if lastStream == 0 || failedAfter || l.HasMoved(b) {
		return 0, hi, false
	}
	for _, c := range calls {
		if c.Op == faults.OpStreamNext && c.Stream == lastStream && l.IsFresh(b, c.Seq) {
			lo++
		}
	}
	return lo, hi, true
}
