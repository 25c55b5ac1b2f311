package workspace

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace/internal/plant"
)

// One test per planted bug owned by the core: each shows the bit changes
// behaviour against the correct code on the same input.

func runBoth(t *testing.T, m plant.Set, run func(t *testing.T, mut plant.Set) []string) {
	t.Helper()
	correct, planted := run(t, 0), run(t, m)
	if cmp.Equal(correct, planted) {
		t.Fatalf("planted bug changed nothing: %v", correct)
	}
	t.Logf("correct %v\nplanted %v", correct, planted)
}

func TestMutantZeroBasedAttempts(t *testing.T) {
	runBoth(t, plant.ZeroBasedAttempts, func(t *testing.T, m plant.Set) []string {
		h := newHarness(t, &fakeBackend{fetch: failingFetch("down")}, 10000, withRetry(2000, 30000, 4), withMutant(m))
		if _, err := h.ws.Exec(ctx0, "build", ExecOptions{}); err != nil {
			t.Fatal(err)
		}
		return h.scheduled()
	})
}

func TestMutantExhaustedClears(t *testing.T) {
	runBoth(t, plant.ExhaustedClears, func(t *testing.T, m plant.Set) []string {
		h := newHarness(t, &fakeBackend{fetch: failingFetch("down")}, 1000, withRetry(100, 150, 3), withMutant(m))
		h.seed(t, scheduler.Intent{Backend: "sandbox", Attempt: 3, NotBefore: ms(0)})
		if r, _ := h.ws.RetryPendingSync(ctx0, "", nil); r.Status != RetryExhausted {
			t.Fatalf("status %s", r.Status)
		}
		return h.stored(t)
	})
}

func TestMutantPrecheckGE(t *testing.T) {
	runBoth(t, plant.PrecheckGE, func(t *testing.T, m plant.Set) []string {
		h := newHarness(t, &fakeBackend{}, 1000, withRetry(100, 150, 3), withMutant(m))
		h.seed(t, scheduler.Intent{Backend: "sandbox", Attempt: 3, NotBefore: ms(0)})
		r, err := h.ws.RetryPendingSync(ctx0, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		return append([]string{string(r.Status), r.Error}, h.sched.Cleared()...)
	})
}

func TestMutantNoRuntimeFence(t *testing.T) {
	runBoth(t, plant.NoRuntimeFence, func(t *testing.T, m plant.Set) []string {
		b := &fakeBackend{runtime: func(int) (string, bool) { return "runtime-b", true }}
		h := newHarness(t, b, 1000, withMutant(m))
		h.seed(t, scheduler.Intent{Backend: "sandbox", RuntimeID: rt("runtime-a"), Attempt: 1, NotBefore: ms(0)})
		r, err := h.ws.RetryPendingSync(ctx0, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		return []string{string(r.Status)}
	})
}

func TestMutantNoReconcile(t *testing.T) {
	runBoth(t, plant.NoReconcile, func(t *testing.T, m plant.Set) []string {
		h := newHarness(t, &fakeBackend{}, 1000, withMutant(m))
		if err := h.store.WriteFetchCursor("sandbox", scheduler.At(42)); err != nil {
			t.Fatal(err)
		}
		if _, err := h.ws.handleFor(ctx0, "sandbox"); err != nil {
			t.Fatal(err)
		}
		c, err := h.store.FetchCursor("sandbox")
		if err != nil {
			t.Fatal(err)
		}
		return []string{c.String()}
	})
}

func TestMutantCoalesceResetsAttempt(t *testing.T) {
	runBoth(t, plant.CoalesceResetsAttempt, func(t *testing.T, m plant.Set) []string {
		h := newHarness(t, &fakeBackend{fetch: failingFetch("down")}, 1000, withRetry(100, 150, 3), withMutant(m))
		h.seed(t, scheduler.Intent{Backend: "sandbox", Attempt: 3, NotBefore: ms(0)})
		if _, err := h.ws.Exec(ctx0, "build", ExecOptions{}); err != nil {
			t.Fatal(err)
		}
		return h.stored(t)
	})
}

func TestMutantProgressAsFailure(t *testing.T) {
	runBoth(t, plant.ProgressAsFailure, func(t *testing.T, m plant.Set) []string {
		all := generatedDeletes(6, "/generated/%d")
		b := &fakeBackend{fetch: func(_ int, req FetchRequest) (*FetchEnvelope, error) {
			return &FetchEnvelope{CurrentCursor: scheduler.At(1), Changes: &fakeChanges{changes: changesAfter(all, req)}}, nil
		}}
		h := newHarness(t, b, 5000, withRetry(100, 1000, 3), withMutant(m))
		h.seed(t, scheduler.Intent{Backend: "sandbox", TargetCursor: scheduler.Ptr(scheduler.At(1)), Attempt: 1, NotBefore: ms(0)})
		var statuses []string
		for range 7 {
			r, err := h.ws.RetryPendingSync(ctx0, "", &Budget{MaxEntries: 1, MaxBytes: 1024})
			if err != nil {
				t.Fatal(err)
			}
			statuses = append(statuses, string(r.Status))
		}
		return statuses
	})
}

func TestMutantFIFOOverlap(t *testing.T) {
	runBoth(t, plant.FIFOOverlap, func(t *testing.T, m plant.Set) []string {
		h := newHarness(t, &fakeBackend{}, 0, withMutant(m))
		release := make(chan struct{})
		started := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			_, _ = serialize(ctx0, h.ws, "sandbox", func() (int, error) { close(started); <-release; return 0, nil })
		})
		<-started
		ran := make(chan struct{})
		wg.Go(func() {
			_, _ = serialize(ctx0, h.ws, "sandbox", func() (int, error) { close(ran); return 0, nil })
		})
		overlapped := "waited"
		select {
		case <-ran:
			overlapped = "overlapped"
		case <-timeAfter(20):
		}
		close(release)
		wg.Wait()
		return []string{overlapped}
	})
}

func TestMutantNoWiden(t *testing.T) {
	runBoth(t, plant.NoWiden, func(t *testing.T, m plant.Set) []string {
		b := &fakeBackend{watermarks: func(_ int, req WatermarksRequest) (Watermarks, error) {
			return Watermarks{CurrentRev: 1}, nil
		}}
		h := newHarness(t, b, 5000, withMutant(m))
		if err := h.store.WriteFetchCursor("sandbox", scheduler.Baseline); err != nil {
			t.Fatal(err)
		}
		h.seed(t, scheduler.Intent{Backend: "sandbox", TargetCursor: scheduler.Ptr(scheduler.At(5)), Attempt: 2, NotBefore: ms(0)})
		if _, err := h.ws.Exec(ctx0, "build", ExecOptions{Sync: SyncDefer}); err != nil {
			t.Fatal(err)
		}
		return h.stored(t)
	})
}
