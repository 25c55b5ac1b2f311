package oracle

import (
	"errors"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/sim/ledger"
)

// HostWriteChecker is the checker of property host-write (SPEC 6.1; the
// rule and when a listing is due: ledger.Writes): a host write or delete
// that returned is acknowledged, and every acknowledged host write is in
// the local store, with the content written, and no acknowledged delete's
// path is, at every listing the driver takes (LocalFiles). A host write
// that failed with an error the harness did not inject breaks it at once.
//
// Host writes are acknowledged in the order their operations finished, but
// two host writes of one path that run concurrently can reach the store in
// the other order (the first held at the blocking point after its call
// returned while the second reaches the store and returns): the path then
// holds the second's content, so an acknowledgement that reached the store
// before the path's latest acknowledged one is superseded (Op.Stored).
type HostWriteChecker struct {
	names   []string
	acked   ledger.Writes
	ackedAt map[string]int // per backend and path: when its latest acknowledged write reached the store
}

// Reads: finished operations and the driver's listings.
func (c *HostWriteChecker) Reads() history.Kinds {
	return history.Of(history.OpReturned, history.LocalFiles)
}

// Begin starts a run.
func (c *HostWriteChecker) Begin(s history.Setup, _ history.Records) {
	c.names, c.acked = s.Backends, ledger.Writes{}
	clear(c.ackedAt)
}

// Observe reads one event.
func (c *HostWriteChecker) Observe(e *history.Event, rep history.Reporter) {
	if e.Kind == history.LocalFiles {
		if detail, lost := checkHostWrites(&c.acked, e.Backend, c.names[e.Backend], e.Files.Files); lost {
			rep.Violate("host-write", detail)
		}
		return
	}
	op := e.Op
	if op.Kind != "write" && op.Kind != "delete" || errors.Is(op.Err, faults.ErrInjected) {
		return // a local-store fault: never acknowledged
	}
	if op.Err != nil {
		rep.Violate("host-write", e.Actor+": "+op.Err.Error())
		return
	}
	if c.superseded(e.Backend, op) {
		rep.Reach("write-acked-out-of-order")
		return
	}
	if op.Kind == "delete" {
		c.acked.Remove(e.Backend, op.Path)
		rep.Reach("host-delete")
		return
	}
	c.acked.AddVersion(e.Backend, op.Path, op.Size, op.Version)
}

// superseded reports whether the host write or delete op reached the store
// before one of the same path already acknowledged; otherwise it notes op
// as the path's latest.
func (c *HostWriteChecker) superseded(b int, op *history.Op) bool {
	if op.Stored == 0 {
		return false
	}
	key := c.names[b] + "\x00" + op.Path
	if op.Stored < c.ackedAt[key] {
		return true
	}
	if c.ackedAt == nil {
		c.ackedAt = map[string]int{}
	}
	c.ackedAt[key] = op.Stored
	return false
}
