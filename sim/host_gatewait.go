package sim

import "github.com/syncsim/syncsim/sim/history"

// noteGateWait is the runtime's gate watch: waiter parked on a gate maker
// made (property fifo's cross-backend rule reads it: oracle.FIFOChecker).
func (h *Host) noteGateWait(waiter, maker string) {
	h.appendEvent(history.Event{Kind: history.GateWait, Actor: waiter, Maker: maker})
}
