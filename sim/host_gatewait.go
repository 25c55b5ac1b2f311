package sim

import (
	"fmt"
	"strings"
)

// Property fifo, its cross-backend side (SPEC 5.1, 11.9): different
// backends never wait for each other. Every gate the workspace parks on is
// a backend's own — a FIFO entry, a shared connect, a pending disconnect,
// each keyed by the backend id — so an operation's actor that parks on a
// gate another backend's operation made waits for that backend: a FIFO kept
// as one queue for every backend, or a connect slot shared across ids, is
// seen the first time two backends meet in it, however short the wait.
// Actors without a backend (the Waker's timer callback, ticks) and gates
// made outside any actor are not judged.

// noteGateWait is the runtime's gate watch.
func (h *Host) noteGateWait(waiter, maker string) {
	wb, ok := actorBackend(waiter)
	if !ok {
		return
	}
	mb, ok := actorBackend(maker)
	if !ok || mb == wb {
		return
	}
	h.fail("fifo", fmt.Sprintf("%s parks on a gate %s made: an operation on backend %s waits for one on %s, and different backends never wait for each other (SPEC 5.1)",
		waiter, maker, wb, mb))
}

// actorBackend is the backend label an operation's actor name ends in
// ("#12.exec.b3": b3), or false for an actor of no backend.
func actorBackend(name string) (string, bool) {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return "", false
	}
	label := name[i+1:]
	if len(label) < 2 || label[0] != 'b' || strings.TrimLeft(label[1:], "0123456789") != "" {
		return "", false
	}
	return label, true
}
