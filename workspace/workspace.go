package workspace

import (
	"sync"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace/internal/plant"
)

// Workspace keeps a host's local store in sync with its container backends
// and owns the durable retry state machine of SPEC sections 2–5. All methods
// are safe for concurrent use; every method runs on its caller's goroutine
// (the workspace starts none) and blocks only inside the Backend, Handle,
// SyncRPC, stream, Scheduler and Gate calls it makes.
type Workspace struct {
	clk    clock.Clock
	store  Store
	sched  scheduler.Scheduler // nil: no durable retries
	parker Parker
	mut    plant.Set

	initialDelay time.Duration
	maxDelay     time.Duration
	maxAttempts  int
	pushBudget   PushBudget

	backendIDs []string // registration order; [0] is the default
	backends   map[string]Backend

	// mu guards the maps below and generation. It is only ever held around
	// map reads and writes, never across a call that may block or switch
	// goroutines under a simulator.
	mu            sync.Mutex
	tails         map[string]*fifoEntry // per-backend FIFO tails; never shrinks
	handles       map[string]Handle
	connecting    map[string]*connectCall
	disconnecting map[string]Gate
	generation    uint64
}
