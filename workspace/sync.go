package workspace

import (
	"context"
	"github.com/syncsim/syncsim/workspace/internal/plant"
)

// PullResult is what an explicit Pull applied.
type PullResult struct {
	Applied int
	Skipped []string // nil when none
}

// Push sends every host-side write since the last push to backend ("" =
// default) and returns how many entries were pushed. It is serialized in the
// backend's FIFO and replayed once on a new connection after a transport
// failure (SPEC 5.1, 5.2 "always").
func (w *Workspace) Push(ctx context.Context, backend string) (int, error) {
	id, err := w.resolveBackend(backend)
	if err != nil {
		return 0, err
	}
	return serialize(ctx, w, id, func() (int, error) {
		return runWithReconnect(ctx, w, id, "push", policyAlways, func(h Handle) (int, error) {
			if h.SyncMode() == SyncNone {
				return 0, nil
			}
			return pushOnce(ctx, w.store, id, h.Sync(), w.pushBudget)
		})
	})
}

// Pull applies everything the backend changed since the last pull
// (pullOnce, SPEC 6.3), serialized and replayed like Push.
func (w *Workspace) Pull(ctx context.Context, backend string) (PullResult, error) {
	id, err := w.resolveBackend(backend)
	if err != nil {
		return PullResult{}, err
	}
	return w.pullSerialized(ctx, id, nil)
}

// pullSerialized is #pullForExec / #pullResolved: one FIFO entry, the pull
// with one reconnect retry, fenced by expectedRuntime when set.
func (w *Workspace) pullSerialized(ctx context.Context, id string, expectedRuntime *string) (PullResult, error) {
	return serialize(ctx, w, id, func() (PullResult, error) {
		return runWithReconnect(ctx, w, id, "pull", policyAlways, func(h Handle) (PullResult, error) {
			// Planted bug plant.NoRuntimeFence: the post-pull skips the
			// runtime assertion, the class of bug where a replacement
			// runtime's empty store is taken for the old runtime's changes.
			if !w.mut.Has(plant.NoRuntimeFence) {
				if err := assertRuntime(postCommandSyncLabel, expectedRuntime, h); err != nil {
					return PullResult{}, err
				}
			}
			if h.SyncMode() == SyncNone {
				return PullResult{}, nil
			}
			r, err := pullOnce(ctx, w.store, id, h.Sync(), w.mut)
			if err != nil {
				return PullResult{}, err
			}
			return PullResult{Applied: r.Applied, Skipped: nonEmpty(r.Skipped)}, nil
		})
	})
}

// pushForExec is #pushForExec: the pre-exec push as its own FIFO entry, on
// the handle the command will be spawned on.
func (w *Workspace) pushForExec(ctx context.Context, id string, h Handle) (int, error) {
	return serialize(ctx, w, id, func() (int, error) {
		if h.SyncMode() == SyncNone {
			return 0, nil
		}
		return pushOnce(ctx, w.store, id, h.Sync(), w.pushBudget)
	})
}

// WriteFile writes path on the host side of backend ("" = default). It goes
// straight to the store, outside the FIFO (SPEC 5.1: local writes are not
// serialized); the next push carries it.
func (w *Workspace) WriteFile(backend, path string, content []byte) error {
	id, err := w.resolveBackend(backend)
	if err != nil {
		return err
	}
	_, err = w.store.WriteFile(id, path, content, false)
	return err
}

// DeleteFile deletes path on the host side of backend, like WriteFile.
func (w *Workspace) DeleteFile(backend, path string) error {
	id, err := w.resolveBackend(backend)
	if err != nil {
		return err
	}
	_, err = w.store.WriteFile(id, path, nil, true)
	return err
}

// Files returns backend's live host-side files, sorted by path.
func (w *Workspace) Files(backend string) ([]File, error) {
	id, err := w.resolveBackend(backend)
	if err != nil {
		return nil, err
	}
	return w.store.Files(id)
}

func nonEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}
