package sim

import (
	"fmt"

	"github.com/syncsim/syncsim/sim/history"
)

// ackWrite notes a finished host write or delete in the host's ledger of
// acknowledged writes (h.ledgers.acked), which the workload draws its
// rewrites and deletes from and which says when a listing is due.
// Property host-write keeps its own (oracle.HostWriteChecker).
func (h *Host) ackWrite(f finished) {
	if f.err != nil || h.observed.writes.superseded(h.backends.names[f.backend], f.path, f.stored) {
		return // failed (a local-store fault, or host-write's), or superseded
	}
	if f.kind == "delete" {
		h.ledgers.acked.Remove(f.backend, f.path)
		return
	}
	h.ledgers.acked.AddVersion(f.backend, f.path, f.size, f.version)
}

// listAckedWrites appends the local store's listing of every backend with
// an acknowledged write or delete (a LocalFiles event each), when a listing
// is due (ledger.Writes.Due) and a checker reads it: property
// host-write holds each acknowledged write to it.
func (h *Host) listAckedWrites() *Violation {
	acked := &h.ledgers.acked
	if !h.hist.Reads(history.LocalFiles) || !acked.Due(h.stores.starts) {
		return nil
	}
	for b := range acked.Backends() {
		if !acked.Tracks(b) {
			continue
		}
		files, err := h.localFiles(b)
		if err != nil {
			return h.failStore("durability", fmt.Errorf("local store Files(%s): %w", h.backends.names[b], err))
		}
		fe := &history.Files{Files: files}
		h.appendEvent(history.Event{Kind: history.LocalFiles, Backend: b, Files: fe})
		fe.Files = nil // valid while observed only
		if h.violated != nil {
			return h.violated
		}
	}
	return nil
}
