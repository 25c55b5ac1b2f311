package faults

// Hooks connects the fault-injecting runtime to a simulator.
//
// Block is called at the start of every blocking call — Connect, every
// SyncRPC call, every stream Next and Close, Exec, every event Next and
// Close, and Handle.Close — before the call has any effect. The simulator
// may switch to another goroutine there, or unwind this one (a host
// restart cuts operations at a blocking point). No lock of this package is
// held while Block runs. The point names the backend and the call, as
// "<backend>.<op>" with op one of the Op names (e.g. "b1.stream-next").
//
// Actor names the caller for the record. It is called right after Block
// (and, for the non-blocking Handle.RuntimeID, on its own), with no lock
// of this package held.
type Hooks interface {
	// Block is called before every call that may block, naming the point.
	Block(point string)
	// Actor names the caller, for the record.
	Actor() string
}

// NoHooks is a Hooks that never blocks and names every caller "-". Unit
// tests use it.
type NoHooks struct{}

// Block does nothing.
func (NoHooks) Block(string) {}

// Actor returns "-".
func (NoHooks) Actor() string { return "-" }
