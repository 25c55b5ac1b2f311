package workspace

import (
	"math"
	"time"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace/internal/plant"
)

// retryDelay is SPEC 2.3: min(maxDelay, initialDelay·2^max(0, attempt−1)),
// saturating at maxDelay where the TypeScript would reach Infinity.
//
// Planted bug plant.ZeroBasedAttempts (article A's zero-based attempts) uses
// the exponent attempt instead of attempt−1, so with 0-based intents the
// delays match and only the stored attempt numbers shift.
func (w *Workspace) retryDelay(attempt int) time.Duration {
	exp := attempt - 1
	if w.mut.Has(plant.ZeroBasedAttempts) {
		exp = attempt
	}
	if exp < 0 {
		exp = 0
	}
	if exp >= 63 || w.initialDelay > math.MaxInt64>>exp {
		return w.maxDelay
	}
	return min(w.maxDelay, w.initialDelay<<exp)
}

// firstAttempt is the attempt of every freshly built intent: 1 (SPEC 1.2).
// Planted bug plant.ZeroBasedAttempts makes it 0, the class of bug where a
// retry counter's base disagrees with the exhaustion check (one extra pull
// per intent, attempt 0 visible to the host).
func (w *Workspace) firstAttempt() int {
	if w.mut.Has(plant.ZeroBasedAttempts) {
		return 0
	}
	return 1
}

// retryIntent builds #retryIntent of SPEC 2.3. The clock is sampled here,
// when the intent is built, i.e. after the pull attempt it follows.
func (w *Workspace) retryIntent(backend string, attempt int, runtimeID *string, target *Cursor) scheduler.Intent {
	in := scheduler.Intent{Backend: backend, Attempt: attempt}
	if runtimeID != nil {
		in.RuntimeID = scheduler.Ptr(*runtimeID)
	}
	if target != nil {
		in.TargetCursor = scheduler.Ptr(*target)
	}
	in.NotBefore = w.clk.Now().Add(w.retryDelay(attempt))
	return in
}
