package workspace

import (
	"context"
	"errors"
	"github.com/syncsim/syncsim/workspace/internal/plant"
	"sync"
)

// fifoEntry is one queued operation of a backend's FIFO. done opens when the
// entry has finished or was abandoned by a cancelled caller; an abandoned
// entry has not waited for its predecessors, so a successor that wakes on it
// walks back to prev and waits there instead.
type fifoEntry struct {
	done      Gate
	prev      *fifoEntry // guarded by Workspace.mu
	abandoned bool       // guarded by Workspace.mu
}

// serialize is #serialize of SPEC 5.1, a per-backend FIFO (not a
// semaphore): fn runs after every entry enqueued before it on the same
// backend has finished, whether it succeeded or failed (failures are not
// contagious; the caller alone sees fn's error). Different backends never
// wait for each other. One tail per backend, and the map never shrinks.
//
// The wait is the only replaceable part (Options.Parker); the ordering logic
// is this function's. fn runs on the caller's goroutine.
//
// A caller whose ctx ends while it waits returns ctx.Err() without running
// fn and abandons its entry; its successors then wait for its predecessor
// instead, so no two entries ever overlap. (JavaScript promise chains have
// no cancellation; this is the Go addition.)
func serialize[T any](ctx context.Context, w *Workspace, backend string, fn func() (T, error)) (T, error) {
	if w.mut.Has(plant.FIFOOverlap) {
		// Planted bug plant.FIFOOverlap: mutations of one backend overlap
		// (the class of bug where a lock/queue is skipped on a path), so a
		// get-then-schedule or two pulls can interleave.
		return fn()
	}
	me := &fifoEntry{done: w.parker.NewGate()}
	w.mu.Lock()
	me.prev = w.tails[backend]
	w.tails[backend] = me
	w.mu.Unlock()
	defer me.done.Open()

	if err := w.waitPredecessors(ctx, me); err != nil {
		var zero T
		return zero, err
	}
	return fn()
}

// maxAbandonedWalk bounds how many abandoned entries one waiter walks past;
// each step moves to a strictly earlier entry, so the bound is only a guard.
const maxAbandonedWalk = 1 << 20

func (w *Workspace) waitPredecessors(ctx context.Context, me *fifoEntry) error {
	for range maxAbandonedWalk {
		w.mu.Lock()
		p := me.prev
		w.mu.Unlock()
		if p == nil {
			return nil
		}
		if err := p.done.Wait(ctx); err != nil {
			w.mu.Lock()
			me.abandoned = true
			w.mu.Unlock()
			return err
		}
		w.mu.Lock()
		if p.abandoned {
			me.prev = p.prev
		} else {
			me.prev = nil // p finished after all its own predecessors
		}
		w.mu.Unlock()
	}
	return errFIFOWalk
}

var errFIFOWalk = errors.New("workspace: FIFO waiter walked past maxAbandonedWalk abandoned entries")

// ChanParker is the production Parker: gates are closed channels.
type ChanParker struct{}

// NewGate returns a channel-backed gate.
func (ChanParker) NewGate() Gate { return &chanGate{ch: make(chan struct{})} }

type chanGate struct {
	once sync.Once
	ch   chan struct{}
}

func (g *chanGate) Open() { g.once.Do(func() { close(g.ch) }) }

// Wait prefers an open gate over a done ctx, so the outcome never depends
// on select's random choice.
func (g *chanGate) Wait(ctx context.Context) error {
	select {
	case <-g.ch:
		return nil
	default:
	}
	select {
	case <-g.ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
