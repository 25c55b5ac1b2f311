package workspace

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/syncsim/syncsim/scheduler"
)

// One test per QUIRK of SPEC 3.3 and 4 owned by the workspace core.

func failingFetch(msg string) func(int, FetchRequest) (*FetchEnvelope, error) {
	return func(int, FetchRequest) (*FetchEnvelope, error) { return nil, errors.New(msg) }
}

func TestQuirkWaitCoalescingDoesNotWiden(t *testing.T) {
	b := &fakeBackend{fetch: failingFetch("pull failed")}
	h := newHarness(t, b, 5000)
	old := "{backend sandbox target {1,null} attempt 2 notBefore 4000}"
	h.seed(t, scheduler.Intent{Backend: "sandbox", TargetCursor: scheduler.Ptr(scheduler.At(1)), Attempt: 2, NotBefore: ms(4000)})
	if _, err := h.ws.Exec(ctx0, "later", ExecOptions{}); err != nil {
		t.Fatal(err)
	}
	// The later command's failure coalesced: no schedule, old fence kept.
	if diff := cmp.Diff([]string{old}, h.stored(t)); diff != "" {
		t.Fatalf("stored (-want +got):\n%s", diff)
	}
	if len(h.scheduled()) != 0 {
		t.Fatalf("scheduled %v", h.scheduled())
	}
}

func TestQuirkExhaustedIntentsAbsorbWaitFailures(t *testing.T) {
	b := &fakeBackend{fetch: failingFetch("still unavailable")}
	h := newHarness(t, b, 5000, withRetry(100, 1000, 3))
	exhausted := "{backend sandbox attempt 3 notBefore 4000}"
	h.seed(t, scheduler.Intent{Backend: "sandbox", Attempt: 3, NotBefore: ms(4000)})
	if _, err := h.ws.Exec(ctx0, "build", ExecOptions{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{exhausted}, h.stored(t)); diff != "" {
		t.Fatalf("stored (-want +got):\n%s", diff)
	}
	got, err := h.ws.RetryPendingSync(ctx0, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := RetryResult{Status: RetryExhausted, Backend: "sandbox", Attempt: 3, Error: "still unavailable"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("retry (-want +got):\n%s", diff)
	}
}

func TestQuirkEarlyCallsIgnoreNotBefore(t *testing.T) {
	b := &fakeBackend{fetch: failingFetch("down")}
	h := newHarness(t, b, 5000, withRetry(100, 1000, 3))
	h.seed(t, scheduler.Intent{Backend: "sandbox", Attempt: 1, NotBefore: ms(999_999)})
	got, err := h.ws.RetryPendingSync(ctx0, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := RetryResult{Status: RetryPending, Backend: "sandbox", Attempt: 2, NotBefore: ms(5200), Error: "down"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("early retry (-want +got):\n%s", diff)
	}
	if _, _, fetches, _, _ := b.stats(); fetches != 1 {
		t.Fatalf("early call pulled %d times, want 1", fetches)
	}
}

// faultyScheduler fails Schedule or Clear while the flag is set.
type faultyScheduler struct {
	*scheduler.Memory
	failSchedule, failClear bool
}

func (f *faultyScheduler) Schedule(ctx context.Context, in scheduler.Intent) error {
	if f.failSchedule {
		return fmt.Errorf("schedule store down")
	}
	return f.Memory.Schedule(ctx, in)
}

func (f *faultyScheduler) Clear(ctx context.Context, backend string) error {
	if f.failClear {
		return fmt.Errorf("clear store down")
	}
	return f.Memory.Clear(ctx, backend)
}

func TestQuirkScheduleClearFailuresInsideTryCountAsPullFailures(t *testing.T) {
	t.Run("clear after a complete pull", func(t *testing.T) {
		h := newHarness(t, &fakeBackend{}, 5000, withRetry(100, 1000, 3))
		h.seed(t, scheduler.Intent{Backend: "sandbox", Attempt: 1, NotBefore: ms(0)})
		fs := &faultyScheduler{Memory: h.sched, failClear: true}
		h.ws.sched = fs
		got, err := h.ws.RetryPendingSync(ctx0, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		want := RetryResult{Status: RetryPending, Backend: "sandbox", Attempt: 2, NotBefore: ms(5200), Error: "clear store down"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("(-want +got):\n%s", diff)
		}
	})
	t.Run("schedule after progress, at max", func(t *testing.T) {
		all := generatedDeletes(3, "/g/%d")
		b := &fakeBackend{fetch: func(_ int, req FetchRequest) (*FetchEnvelope, error) {
			return &FetchEnvelope{CurrentCursor: scheduler.At(1), Changes: &fakeChanges{changes: changesAfter(all, req)}}, nil
		}}
		h := newHarness(t, b, 5000, withRetry(100, 1000, 3))
		h.seed(t, scheduler.Intent{Backend: "sandbox", Attempt: 3, NotBefore: ms(0)})
		h.ws.sched = &faultyScheduler{Memory: h.sched, failSchedule: true}
		got, err := h.ws.RetryPendingSync(ctx0, "", &Budget{MaxEntries: 1, MaxBytes: 1024})
		if err != nil {
			t.Fatal(err)
		}
		want := RetryResult{Status: RetryExhausted, Backend: "sandbox", Attempt: 3, Error: "schedule store down"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("(-want +got):\n%s", diff)
		}
	})
	t.Run("schedule failing in the catch branch rejects", func(t *testing.T) {
		h := newHarness(t, &fakeBackend{fetch: failingFetch("down")}, 5000)
		h.seed(t, scheduler.Intent{Backend: "sandbox", Attempt: 1, NotBefore: ms(0)})
		h.ws.sched = &faultyScheduler{Memory: h.sched, failSchedule: true}
		_, err := h.ws.RetryPendingSync(ctx0, "", nil)
		if errorText(err) != "schedule store down" {
			t.Fatalf("err = %v", err)
		}
	})
}
