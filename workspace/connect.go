package workspace

import (
	"context"
	"fmt"
	"github.com/syncsim/syncsim/workspace/internal/plant"
)

// connectCall is one in-flight connect shared by every caller that asks for
// the same backend meanwhile (SPEC 5.4). h and err are guarded by
// Workspace.mu and final once done is open.
type connectCall struct {
	done Gate
	h    Handle
	err  error
}

// maxDisconnectRounds bounds how often one handleFor call waits for a
// pending disconnect and re-enters. Each round needs another caller to
// connect and invalidate in between, so a handful is already pathological.
const maxDisconnectRounds = 64

// handleFor is #handleFor of SPEC 5.4: the cached handle; else wait for a
// pending disconnect and re-enter; else share an in-flight connect; else
// connect, reconcile and publish.
func (w *Workspace) handleFor(ctx context.Context, id string) (Handle, error) {
	for range maxDisconnectRounds {
		w.mu.Lock()
		if h, ok := w.handles[id]; ok {
			w.mu.Unlock()
			return h, nil
		}
		if g, ok := w.disconnecting[id]; ok {
			w.mu.Unlock()
			if err := g.Wait(ctx); err != nil {
				return nil, err
			}
			continue
		}
		if c, ok := w.connecting[id]; ok {
			w.mu.Unlock()
			if err := c.done.Wait(ctx); err != nil {
				return nil, err
			}
			w.mu.Lock()
			h, err := c.h, c.err
			w.mu.Unlock()
			return h, err
		}
		backend, ok := w.backends[id]
		if !ok {
			w.mu.Unlock()
			return nil, fmt.Errorf("Workspace: no backend with id %s", jsonString(id))
		}
		c := &connectCall{done: w.parker.NewGate()}
		w.connecting[id] = c
		gen := w.generation
		w.mu.Unlock()

		h, err := w.connect(ctx, id, backend, gen)

		w.mu.Lock()
		c.h, c.err = h, err
		if w.connecting[id] == c {
			delete(w.connecting, id) // a failed connect is not cached
		}
		w.mu.Unlock()
		c.done.Open()
		return h, err
	}
	return nil, fmt.Errorf("workspace: backend %s: still disconnecting after %d rounds", jsonString(id), maxDisconnectRounds)
}

// connect runs steps 1–5 of SPEC 5.4 for one new connection.
func (w *Workspace) connect(ctx context.Context, id string, backend Backend, gen uint64) (Handle, error) {
	var h Handle
	var err error
	if w.mut.Has(plant.MutexAcrossCall) {
		h, err = w.connectHoldingLock(ctx, backend)
	} else {
		h, err = backend.Connect(ctx)
	}
	if err != nil {
		return nil, err
	}
	fail := func(err error) (Handle, error) {
		// Never published: close it so a backend that caches sessions
		// cannot hand the same broken one back. Close errors are dropped.
		w.mu.Lock()
		published := w.handles[id] == h
		w.mu.Unlock()
		if !published {
			_ = h.Close()
		}
		return nil, err
	}
	if !w.sameGeneration(gen) {
		return fail(closedWhileConnecting(id))
	}
	// Reconcile before publishing: a remote that restarted has lost state
	// we thought it had (SPEC 6.6). sync "none" has nothing to reconcile.
	// Planted bug plant.NoReconcile skips it: the class of bug where a
	// restarted peer's truncated log goes unnoticed until a pull diverges.
	if h.SyncMode() != SyncNone && !w.mut.Has(plant.NoReconcile) {
		if _, _, err := reconcileWatermarks(ctx, w.store, id, h.Sync()); err != nil {
			return fail(err)
		}
	}
	w.mu.Lock()
	if w.generation != gen {
		w.mu.Unlock()
		return fail(closedWhileConnecting(id))
	}
	w.handles[id] = h
	w.mu.Unlock()
	return h, nil
}

func closedWhileConnecting(id string) error {
	return fmt.Errorf("Workspace closed while backend %s was connecting.", jsonString(id))
}

func (w *Workspace) sameGeneration(gen uint64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.generation == gen
}

// invalidateHandle is #invalidateHandle of SPEC 5.3. It acts only when h is
// the cached handle for id (so a late error from an old handle cannot tear
// down a replacement): it drops the cache entry, closes h (errors dropped)
// while a pending-disconnect gate makes other callers wait, and reports true.
func (w *Workspace) invalidateHandle(id string, h Handle) bool {
	w.mu.Lock()
	if cur, ok := w.handles[id]; !ok || cur != h {
		w.mu.Unlock()
		return false
	}
	delete(w.handles, id)
	g := w.parker.NewGate()
	w.disconnecting[id] = g
	w.mu.Unlock()

	_ = h.Close()

	w.mu.Lock()
	if w.disconnecting[id] == g {
		delete(w.disconnecting, id)
	}
	w.mu.Unlock()
	g.Open()
	return true
}

// Close drops every cached handle and closes it, waits for pending
// disconnects, and bumps the connection generation so a connect in flight
// is closed instead of published ("Workspace closed while backend … was
// connecting."). Close errors are dropped, as in the TypeScript (best
// effort: a transport that is already gone must not fail Close). The
// workspace stays usable: the next operation connects afresh.
func (w *Workspace) Close() error {
	w.mu.Lock()
	w.generation++
	var handles []Handle
	var pending []Gate
	for _, id := range w.backendIDs { // registration order, never map order
		if h, ok := w.handles[id]; ok {
			handles = append(handles, h)
		}
		if g, ok := w.disconnecting[id]; ok {
			pending = append(pending, g)
		}
	}
	clear(w.handles)
	clear(w.connecting)
	w.mu.Unlock()

	for _, g := range pending {
		_ = g.Wait(context.Background())
	}
	for _, h := range handles {
		_ = h.Close()
	}
	return nil
}

// connectHoldingLock is planted bug plant.MutexAcrossCall: the class of bug
// where a lock is held across a call that can take long, so every caller
// needing the lock stalls behind the slowest backend (and, under a
// cooperative scheduler that switches at the call, never wakes).
func (w *Workspace) connectHoldingLock(ctx context.Context, backend Backend) (Handle, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return backend.Connect(ctx)
}
