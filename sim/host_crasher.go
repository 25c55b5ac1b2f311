package sim

// Crasher is implemented by a plugged-in store (intent or local) that holds
// what a crashed process loses without any call of its own: an exclusive
// lock on its files (bbolt, LevelDB and Badger take one), a lease, a
// connection slot. A simulated host crash happens inside one process, so
// a handle it drops keeps such a resource, and the store's next open, at
// the restart, fails or waits for it: a correct store reported as
// store-error or hang. At a crash the host calls Crash on such a store
// instead of keeping its handle until the run ends.
//
// Crash must release what the process's death would and nothing more: it
// must not write, flush or commit. A store that made its acknowledged
// writes durable only in Crash would pass runs a real crash fails; what a
// call acknowledged has to be durable when the call returns. The handle is
// not used again, nor closed. A clean restart still closes the store.
type Crasher interface {
	// Crash releases what a dead process would release, and nothing more.
	Crash()
}
