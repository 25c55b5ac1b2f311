package sim

import "fmt"

// checkAckedWrites is property host-write (the rule and when a check lists
// the store: oracle.AckedWrites): every acknowledged host write is in the
// local store, with the content written.
func (h *Host) checkAckedWrites() *Violation {
	acked := &h.oracle.Acked
	if !acked.Due(h.starts) {
		return nil
	}
	for b := range acked.Backends() {
		if !acked.Tracks(b) {
			continue
		}
		files, err := h.localFiles(b)
		if err != nil {
			return h.failStore("durability", fmt.Errorf("local store Files(%s): %w", h.names[b], err))
		}
		if detail, lost := acked.Check(b, h.names[b], files); lost {
			return h.fail("host-write", detail)
		}
	}
	return nil
}
