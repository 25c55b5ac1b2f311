package workspace

import "context"

// Parker supplies the one blocking primitive the workspace waits on: the
// per-backend FIFO, a shared in-flight connect and a pending disconnect all
// wait on a Gate. Production uses channels; a simulator supplies its own so
// that it alone decides which goroutine runs next. The ordering logic that
// decides who waits for whom is the workspace's own and is not replaceable.
type Parker interface {
	// NewGate returns a closed gate.
	NewGate() Gate
}

// Gate is opened once; Wait returns when it is open or ctx is done.
type Gate interface {
	// Wait blocks until the gate is open (nil) or ctx is done (ctx.Err()).
	Wait(ctx context.Context) error
	// Open opens the gate for every waiter, present and future.
	Open()
}
