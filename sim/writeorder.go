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

// writeOrder numbers write-file calls as they reach the local store: at
// holds each write actor's latest, ackedAt each path's latest
// acknowledged. The zero value is ready.
type writeOrder struct {
	count   int
	at      map[*actor]int
	ackedAt map[string]int // by backend id and path
}

// reached notes that actor a's write-file call reached the local store.
func (w *writeOrder) reached(a *actor) {
	w.count++
	if a == nil {
		return
	}
	if w.at == nil {
		w.at = map[*actor]int{}
	}
	w.at[a] = w.count
}

// take returns (and forgets) when actor a's latest write-file call reached
// the local store; 0 when none did.
func (w *writeOrder) take(a *actor) int {
	at := w.at[a]
	delete(w.at, a)
	return at
}

// superseded reports whether a write or delete of path on backend that
// reached the store at stored (0: unknown) came before one of the same
// path already acknowledged; otherwise it notes it as the path's latest.
func (w *writeOrder) superseded(backend, path string, stored int) bool {
	if stored == 0 {
		return false
	}
	key := backend + "\x00" + path
	if stored < w.ackedAt[key] {
		return true
	}
	if w.ackedAt == nil {
		w.ackedAt = map[string]int{}
	}
	w.ackedAt[key] = stored
	return false
}
