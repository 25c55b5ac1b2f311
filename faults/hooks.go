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
//
// A Hooks that also implements ReturnHooks gets a second blocking point
// on the other side of every such call.
type Hooks interface {
	// Block is called before every call that may block, naming the point.
	Block(point string)
	// Actor names the caller, for the record.
	Actor() string
}

// ReturnHooks is a Hooks with a blocking point after every call as well.
//
// Return is called once a blocking call has had all its effects and its
// record is written, on every return path (an injected failure too), with
// no lock of this package held, right before the result goes back to the
// caller. The point is the one Block was given. A simulator that switches
// there separates a call's result from its use: another goroutine may
// change what the caller just read before it acts on it, the window of
// every read-then-act race, which a switch before the next call alone
// cannot open when the act is no call at all (arming a timer from a
// listing, returning a result to a waiting caller). It may also unwind the
// caller there: the call happened, the caller never learns its outcome.
type ReturnHooks interface {
	Hooks
	// Return is called after the blocking call at point returned.
	Return(point string)
}

// returnsOf returns h as a ReturnHooks, or nil when it has no Return.
func returnsOf(h Hooks) ReturnHooks {
	r, _ := h.(ReturnHooks)
	return r
}

// NoHooks is a Hooks that never blocks and names every caller "-". Unit
// tests use it.
type NoHooks struct{}

// Block does nothing.
func (NoHooks) Block(string) {}

// Actor returns "-".
func (NoHooks) Actor() string { return "-" }
