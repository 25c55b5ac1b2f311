package sim

// Host writes are acknowledged in the order they reached the local store.
// Two host writes of one path (two rewrites drawn from the same
// acknowledged state, or a rewrite and a delete) that run concurrently can
// return in the other order: the first to reach the store may be held at
// the blocking point after its call returned (returns.go) while the second
// reaches the store and returns. The path then holds the second's content,
// and the judge, which acknowledges writes as their operations finish,
// must not let the first overwrite it: each write carries when it reached
// the store, and an acknowledgement older than the path's latest one is
// superseded.

// noteLocalWrite notes that the running actor's write-file call reached
// the local store (localStoreCheck).
func (h *Host) noteLocalWrite() {
	h.observed.writes++
	if a := h.rt.current; a != nil {
		if h.observed.writeAt == nil {
			h.observed.writeAt = map[*actor]int{}
		}
		h.observed.writeAt[a] = h.observed.writes
	}
}

// takeLocalWrite returns (and forgets) when the running actor's latest
// write-file call reached the local store; 0 when none did.
func (h *Host) takeLocalWrite() int {
	a := h.rt.current
	at := h.observed.writeAt[a]
	delete(h.observed.writeAt, a)
	return at
}

// supersededWrite reports whether the host write or delete f reached the
// store before one of the same path already acknowledged; otherwise it
// notes f as the path's latest.
func (h *Host) supersededWrite(f finished) bool {
	if f.stored == 0 {
		return false
	}
	key := h.backends.names[f.backend] + "\x00" + f.path
	if f.stored < h.observed.ackedAt[key] {
		return true
	}
	if h.observed.ackedAt == nil {
		h.observed.ackedAt = map[string]int{}
	}
	h.observed.ackedAt[key] = f.stored
	return false
}
