package workspace

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/syncsim/syncsim/scheduler"
)

func TestExecStreamErrorSchedulesUnfencedAndInvalidates(t *testing.T) {
	for _, mode := range []ExecSync{SyncWait, SyncDefer} {
		t.Run(fmt.Sprint(mode), func(t *testing.T) {
			streamErr := errors.New("websocket closed mid-stream")
			b := &fakeBackend{
				runtime: func(int) (string, bool) { return "rt-1", true },
				exec: func(int, string) (EventStream, error) {
					return &fakeEvents{events: []Event{{Kind: EventStdout}}, failAt: 1, err: streamErr}, nil
				},
			}
			h := newHarness(t, b, 5000)
			res, err := h.ws.Exec(ctx0, "build", ExecOptions{Sync: mode})
			if !errors.Is(err, streamErr) {
				t.Fatalf("err = %v", err)
			}
			want := ExecResult{ExitCode: NoExitCode, Sync: SyncResult{Status: SyncPending, Error: "websocket closed mid-stream"}}
			if diff := cmp.Diff(want, res); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"{backend sandbox runtime rt-1 attempt 1 notBefore 6000}"}, h.stored(t)); diff != "" {
				t.Fatalf("stored (-want +got):\n%s", diff)
			}
			if _, _, fetches, closes, _ := b.stats(); fetches != 0 || closes != 1 {
				t.Fatalf("fetches %d closes %d, want 0 1", fetches, closes)
			}
		})
	}
}

func TestExecConsumerCancel(t *testing.T) {
	for _, mode := range []ExecSync{SyncWait, SyncDefer} {
		t.Run(fmt.Sprint(mode), func(t *testing.T) {
			block := make(chan struct{})
			events := &fakeEvents{events: []Event{{Kind: EventStdout}, {Kind: EventExit, ExitCode: 4}}, block: block}
			b := &fakeBackend{exec: func(int, string) (EventStream, error) { return events, nil }}
			h := newHarness(t, b, 5000)
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			close(block) // the command keeps producing after the cancel
			res, err := h.ws.Exec(ctx, "build", ExecOptions{Sync: mode})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v", err)
			}
			var want ExecResult
			var stored []string
			if mode == SyncWait {
				// Upstream cancelled, an unfenced intent scheduled.
				want = ExecResult{ExitCode: NoExitCode, Sync: SyncResult{Status: SyncPending, Error: "context canceled"}}
				stored = []string{"{backend sandbox attempt 1 notBefore 6000}"}
			} else {
				// Drained to the end, then a fenced intent captured.
				want = ExecResult{ExitCode: 4, Sync: SyncResult{Status: SyncPending, Backend: "sandbox", TargetCursor: scheduler.Ptr(scheduler.Baseline)}}
				stored = []string{"{backend sandbox target {0,null} attempt 1 notBefore 6000}"}
			}
			if diff := cmp.Diff(want, res); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(stored, h.stored(t)); diff != "" {
				t.Fatalf("stored (-want +got):\n%s", diff)
			}
			if events.closed != 1 {
				t.Fatalf("stream closed %d times", events.closed)
			}
		})
	}
}

func TestRetryPendingSyncBranches(t *testing.T) {
	t.Run("no scheduler", func(t *testing.T) {
		h := newHarness(t, &fakeBackend{}, 0, withoutScheduler())
		_, err := h.ws.RetryPendingSync(ctx0, "", nil)
		if errorText(err) != "Workspace has no retryScheduler configured" {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("idle", func(t *testing.T) {
		h := newHarness(t, &fakeBackend{}, 0)
		r, err := h.ws.RetryPendingSync(ctx0, "", nil)
		if err != nil || !cmp.Equal(r, RetryResult{Status: RetryIdle, Backend: "sandbox"}) {
			t.Fatalf("r %+v err %v", r, err)
		}
	})
	t.Run("pre-check above max", func(t *testing.T) {
		b := &fakeBackend{}
		h := newHarness(t, b, 0, withRetry(100, 150, 3))
		h.seed(t, scheduler.Intent{Backend: "sandbox", RuntimeID: rt("r"), Attempt: 4, NotBefore: ms(0)})
		r, err := h.ws.RetryPendingSync(ctx0, "", nil)
		want := RetryResult{Status: RetryExhausted, Backend: "sandbox", RuntimeID: rt("r"), Attempt: 4, Error: "pending sync retry attempts exhausted"}
		if err != nil || !cmp.Equal(want, r) {
			t.Fatalf("r %+v err %v", r, err)
		}
		if connects, _, _, _, _ := b.stats(); connects != 0 || len(h.stored(t)) != 1 {
			t.Fatalf("pre-check pulled or cleared")
		}
	})
	t.Run("lost at max still clears", func(t *testing.T) {
		b := &fakeBackend{runtime: func(int) (string, bool) { return "", false }, mode: SyncNone}
		h := newHarness(t, b, 0, withRetry(100, 150, 3))
		h.seed(t, scheduler.Intent{Backend: "sandbox", RuntimeID: rt("r"), Attempt: 3, NotBefore: ms(0)})
		r, _ := h.ws.RetryPendingSync(ctx0, "", nil)
		if r.Status != RetryLost || len(h.stored(t)) != 0 {
			t.Fatalf("r %+v stored %v", r, h.stored(t))
		}
	})
	t.Run("EEXEC_LOST without runtime is an ordinary failure", func(t *testing.T) {
		b := &fakeBackend{fetch: func(int, FetchRequest) (*FetchEnvelope, error) { return nil, newExecutionLost("x") }}
		h := newHarness(t, b, 0, withRetry(100, 150, 3))
		h.seed(t, scheduler.Intent{Backend: "sandbox", Attempt: 1, NotBefore: ms(0)})
		r, _ := h.ws.RetryPendingSync(ctx0, "", nil)
		if r.Status != RetryPending || r.Attempt != 2 {
			t.Fatalf("r %+v", r)
		}
	})
	t.Run("sync none completes empty", func(t *testing.T) {
		h := newHarness(t, &fakeBackend{mode: SyncNone}, 0)
		h.seed(t, scheduler.Intent{Backend: "sandbox", Attempt: 2, NotBefore: ms(0)})
		r, err := h.ws.RetryPendingSync(ctx0, "", nil)
		if err != nil || !cmp.Equal(r, RetryResult{Status: RetryComplete, Backend: "sandbox"}) {
			t.Fatalf("r %+v err %v", r, err)
		}
	})
	t.Run("invalid budget counts as a failure", func(t *testing.T) {
		h := newHarness(t, &fakeBackend{}, 0, withRetry(100, 150, 3))
		h.seed(t, scheduler.Intent{Backend: "sandbox", Attempt: 1, NotBefore: ms(0)})
		r, _ := h.ws.RetryPendingSync(ctx0, "", &Budget{})
		if r.Status != RetryPending || r.Attempt != 2 || r.Error != "Sync batch maxEntries must be a positive safe integer" {
			t.Fatalf("r %+v", r)
		}
	})
}

// Concurrent execs and retries on one workspace: run under -race. The
// invariants of SPEC 11 hold at the end: at most one intent per backend and
// 1 <= attempt <= max.
func TestConcurrentExecAndRetry(t *testing.T) {
	var mu sync.Mutex
	n := 0
	b := &fakeBackend{fetch: func(int, FetchRequest) (*FetchEnvelope, error) {
		mu.Lock()
		defer mu.Unlock()
		n++
		if n%3 == 0 {
			return &FetchEnvelope{Changes: &fakeChanges{}}, nil
		}
		return nil, errors.New("flaky")
	}}
	h := newHarness(t, b, 1000, withRetry(100, 1000, 4))
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			for range 8 {
				if i%2 == 0 {
					if _, err := h.ws.Exec(ctx0, "build", ExecOptions{Sync: ExecSync(i / 2 % 2)}); err != nil {
						t.Error(err)
					}
				} else if _, err := h.ws.RetryPendingSync(ctx0, "", nil); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	stored := h.stored(t)
	if len(stored) > 1 {
		t.Fatalf("stored %v", stored)
	}
	for _, in := range h.sched.Scheduled() {
		if in.Attempt < 1 || in.Attempt > 4 {
			t.Fatalf("scheduled out-of-range intent %s", in)
		}
	}
}
