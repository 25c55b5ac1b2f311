// Package ledger holds the small accounts of a run that both the driver
// (package sim) and the judge (package sim/oracle) keep, each its own
// copy: the host writes the workspace acknowledged (Writes), the entries
// each backend's streams served (Served), the logs lost under a live
// connection (Truncations), and what a host write writes (HostContent,
// ContentKey, HostPrefix).
//
// The driver keeps them to drive the world: the workload draws rewrites
// and deletes from the acknowledged writes, the served entries decide when
// a cursor read is taken, the lost logs decide what the tail's snapshot
// marks blind. A checker keeps them to judge: host-write holds the local
// store to the acknowledged writes, applied bounds what a batch may apply
// by the entries served. Neither side reads the other's copy; both are fed
// from what the run did.
//
// Import rule: this package imports the faults records and the
// scheduler's value types only, never the model, the driver or the judge,
// so that the driver can keep its accounts without importing the model.
package ledger
