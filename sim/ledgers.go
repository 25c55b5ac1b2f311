package sim

import "github.com/syncsim/syncsim/sim/ledger"

// ledgers are the driver's own accounts of the world, kept to drive it,
// never to judge it (the judge keeps its own copies from the history):
//   - acked: the host writes the workspace acknowledged, which the
//     workload draws rewrites and deletes from, and which says when a
//     listing of the local store is due;
//   - truncs: the lost logs, which decide what the tail's snapshot marks
//     blind (a backend that cannot converge, SPEC 6.3's QUIRK);
//   - served: the entries each backend's streams served, which decide when
//     complete-at-target's cursor read is taken.
type ledgers struct {
	acked  ledger.Writes
	truncs ledger.Truncations
	served ledger.Served
}
