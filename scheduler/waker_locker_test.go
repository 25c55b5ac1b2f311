package scheduler_test

import (
	"context"
	"sync"
	"testing"

	"github.com/benbjohnson/clock"

	"github.com/syncsim/syncsim/scheduler"
)

// heldLocker is a sync.Locker that reports whether it is held.
type heldLocker struct {
	mu    sync.Mutex
	held  bool
	locks int
}

func (l *heldLocker) Lock()   { l.mu.Lock(); l.held = true; l.locks++ }
func (l *heldLocker) Unlock() { l.held = false; l.mu.Unlock() }

// heldLister lists a store and notes whether the locker was held then.
type heldLister struct {
	store  scheduler.Lister
	locker *heldLocker
	held   []bool
}

func (l *heldLister) List(ctx context.Context) ([]scheduler.Intent, error) {
	l.held = append(l.held, l.locker.held)
	return l.store.List(ctx)
}

// TestWakerLockerIsHeldAcrossARearmsListing: a Waker given a Locker takes
// it instead of its own mutex, and holds it across a re-arm's listing (so
// a simulator can hand it one that parks actors).
func TestWakerLockerIsHeldAcrossARearmsListing(t *testing.T) {
	store := scheduler.NewMemory()
	if err := store.Schedule(context.Background(), scheduler.Intent{Backend: "b0", Attempt: 1, NotBefore: t0.Add(3600e9)}); err != nil {
		t.Fatal(err)
	}
	locker := &heldLocker{}
	lister := &heldLister{store: store, locker: locker}
	clk := clock.NewMock()
	clk.Set(t0)
	w := scheduler.NewWaker(clk, lister, 3, newFireLog().fire)
	w.Locker = locker
	defer w.Stop()
	if err := w.Rearm(context.Background()); err != nil {
		t.Fatal(err)
	}
	if at, ok := w.Next(); !ok || !at.Equal(t0.Add(3600e9)) {
		t.Fatalf("alarm %v %v, want the intent's notBefore", at, ok)
	}
	if len(lister.held) != 1 || !lister.held[0] {
		t.Errorf("listings under the locker: %v, want one, held", lister.held)
	}
	if locker.locks < 2 || locker.held {
		t.Errorf("locker taken %d times, held now %v: want Rearm and Next to take it and let it go", locker.locks, locker.held)
	}
}
