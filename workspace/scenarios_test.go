package workspace

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/syncsim/syncsim/scheduler"
)

// The R-scenarios of SPEC 9, one test each, exact values.

var ctx0 = context.Background()

func rt(s string) *string { return &s }

func TestR1LostRuntimeIntentIsClearedLiveRuntimeSchedulesAnew(t *testing.T) {
	failLivePull := false
	replacementPulls := 0
	b := &fakeBackend{
		runtime: func(conn int) (string, bool) {
			if conn == 0 {
				return "runtime-a", true
			}
			return "runtime-b", true
		},
		fetch: func(conn int, req FetchRequest) (*FetchEnvelope, error) {
			if conn == 0 {
				return nil, &TransportError{Msg: "container exited during post-exec pull"}
			}
			if failLivePull {
				return nil, fmt.Errorf("live runtime pull failed")
			}
			replacementPulls++
			return &FetchEnvelope{Changes: &fakeChanges{}}, nil
		},
	}
	h := newHarness(t, b, 5000, withRetry(100, 1000, 3))

	res, err := h.ws.Exec(ctx0, "build", ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := SyncResult{Status: SyncPending, Error: `Execution "post-command sync" was lost when its container runtime was replaced. Original transport failure: container exited during post-exec pull`}
	if diff := cmp.Diff(want, res.Sync); diff != "" {
		t.Fatalf("exec sync (-want +got):\n%s", diff)
	}
	if replacementPulls != 0 {
		t.Fatalf("replacementPulls = %d", replacementPulls)
	}
	if diff := cmp.Diff([]string{"{backend sandbox runtime runtime-a attempt 1 notBefore 5100}"}, h.stored(t)); diff != "" {
		t.Fatalf("stored (-want +got):\n%s", diff)
	}

	got, err := h.ws.RetryPendingSync(ctx0, "sandbox", nil)
	if err != nil {
		t.Fatal(err)
	}
	wantRetry := RetryResult{Status: RetryLost, Backend: "sandbox", RuntimeID: rt("runtime-a"),
		Error: `Execution "post-command sync" was lost when its container runtime was replaced.`}
	if diff := cmp.Diff(wantRetry, got); diff != "" {
		t.Fatalf("retry (-want +got):\n%s", diff)
	}
	if replacementPulls != 0 || len(h.stored(t)) != 0 {
		t.Fatalf("replacementPulls %d stored %v", replacementPulls, h.stored(t))
	}
	if diff := cmp.Diff([]string{"sandbox"}, h.sched.Cleared()); diff != "" {
		t.Fatalf("cleared (-want +got):\n%s", diff)
	}

	failLivePull = true
	res, err = h.ws.Exec(ctx0, "build", ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(SyncResult{Status: SyncPending, Error: "live runtime pull failed"}, res.Sync); diff != "" {
		t.Fatalf("second exec (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"{backend sandbox runtime runtime-b attempt 1 notBefore 5100}"}, h.stored(t)); diff != "" {
		t.Fatalf("stored (-want +got):\n%s", diff)
	}
}

// TestR2IntentOfAnotherRuntimeReplacedByLiveRuntime: a stored intent
// fenced on a runtime that is gone, or on none at all (a host may store
// one), is not "the same runtime" as an identified caller's (SPEC 3.3 step
// 4 makes only an unidentified caller same as anything): the live
// runtime's failure replaces it with a fresh fenced intent instead of
// joining it.
func TestR2IntentOfAnotherRuntimeReplacedByLiveRuntime(t *testing.T) {
	for _, tc := range []struct {
		name    string
		runtime *string
	}{
		{"stale runtime", rt("runtime-a")},
		{"no runtime", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &fakeBackend{
				runtime: func(int) (string, bool) { return "runtime-b", true },
				fetch: func(int, FetchRequest) (*FetchEnvelope, error) {
					return nil, fmt.Errorf("runtime-b pull failed")
				},
			}
			h := newHarness(t, b, 5000, withRetry(100, 1000, 3))
			h.seed(t, scheduler.Intent{Backend: "sandbox", RuntimeID: tc.runtime, Attempt: 3, NotBefore: ms(0)})

			res, err := h.ws.Exec(ctx0, "build", ExecOptions{})
			if err != nil || res.Sync.Status != SyncPending || res.Sync.Error != "runtime-b pull failed" {
				t.Fatalf("exec = %+v, %v", res, err)
			}
			if diff := cmp.Diff([]string{"{backend sandbox runtime runtime-b attempt 1 notBefore 5100}"}, h.stored(t)); diff != "" {
				t.Fatalf("stored (-want +got):\n%s", diff)
			}
		})
	}
}

func TestR3ExactIntentAfterPostCommandPullFailure(t *testing.T) {
	b := &fakeBackend{fetch: func(int, FetchRequest) (*FetchEnvelope, error) {
		return nil, fmt.Errorf("backend unavailable")
	}}
	h := newHarness(t, b, 10000, withRetry(2000, 30000, 4))
	res, err := h.ws.Exec(ctx0, "build", ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := ExecResult{ExitCode: 0, Sync: SyncResult{Status: SyncPending, Error: "backend unavailable"}}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Fatalf("exec (-want +got):\n%s", diff)
	}
	if _, execs, _, _, _ := b.stats(); execs != 1 {
		t.Fatalf("execs = %d", execs)
	}
	if diff := cmp.Diff([]string{"{backend sandbox attempt 1 notBefore 12000}"}, h.scheduled()); diff != "" {
		t.Fatalf("scheduled (-want +got):\n%s", diff)
	}
}

// generatedDeletes returns n delete entries at rev 1 named by format.
func generatedDeletes(n int, format string) []Change {
	out := make([]Change, n)
	for i := range out {
		out[i] = Change{Rev: 1, Path: fmt.Sprintf(format, i), Deleted: true}
	}
	return out
}

func TestR4PartialPullResumesFromPersistedCursor(t *testing.T) {
	all := generatedDeletes(257, "/generated/%03d")
	first := true
	b := &fakeBackend{fetch: func(_ int, req FetchRequest) (*FetchEnvelope, error) {
		s := &fakeChanges{changes: changesAfter(all, req)}
		if first {
			first = false
			s.err, s.failAt = fmt.Errorf("lost after first batch"), len(s.changes)
		}
		return &FetchEnvelope{CurrentCursor: scheduler.At(1), Changes: s}, nil
	}}
	h := newHarness(t, b, 5000, withRetry(100, 1000, 3))

	res, err := h.ws.Exec(ctx0, "build", ExecOptions{})
	if err != nil || res.Sync.Error != "lost after first batch" {
		t.Fatalf("exec = %+v, %v", res, err)
	}
	if diff := cmp.Diff([]string{"{backend sandbox attempt 1 notBefore 5100}"}, h.stored(t)); diff != "" {
		t.Fatalf("stored (-want +got):\n%s", diff)
	}
	got, err := h.ws.RetryPendingSync(ctx0, "sandbox", nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(RetryResult{Status: RetryComplete, Backend: "sandbox", Applied: 1}, got); diff != "" {
		t.Fatalf("retry (-want +got):\n%s", diff)
	}
	if _, execs, _, _, _ := b.stats(); execs != 1 {
		t.Fatalf("execs = %d", execs)
	}
	wantAfters := []scheduler.Cursor{scheduler.Baseline, scheduler.AtPath(1, "/generated/255")}
	if diff := cmp.Diff(wantAfters, b.fetchAfters); diff != "" {
		t.Fatalf("fetch afters (-want +got):\n%s", diff)
	}
	if len(h.stored(t)) != 0 || !cmp.Equal([]string{"sandbox"}, h.sched.Cleared()) {
		t.Fatalf("stored %v cleared %v", h.stored(t), h.sched.Cleared())
	}
}

func TestR5BoundedBatchesMakingProgressNeverExhaust(t *testing.T) {
	all := generatedDeletes(6, "/generated/%d")
	b := &fakeBackend{fetch: func(_ int, req FetchRequest) (*FetchEnvelope, error) {
		return &FetchEnvelope{CurrentCursor: scheduler.At(1), Changes: &fakeChanges{changes: changesAfter(all, req)}}, nil
	}}
	h := newHarness(t, b, 5000, withRetry(100, 1000, 3))
	h.seed(t, scheduler.Intent{Backend: "sandbox", TargetCursor: scheduler.Ptr(scheduler.At(1)), Attempt: 1, NotBefore: ms(0)})

	budget := &Budget{MaxEntries: 1, MaxBytes: 1024}
	for k := 1; k <= 6; k++ {
		got, err := h.ws.RetryPendingSync(ctx0, "sandbox", budget)
		if err != nil {
			t.Fatal(err)
		}
		want := RetryResult{Status: RetryPending, Backend: "sandbox", Attempt: 1, NotBefore: ms(5100),
			TargetCursor: scheduler.Ptr(scheduler.At(1)),
			Cursor:       scheduler.Ptr(scheduler.AtPath(1, fmt.Sprintf("/generated/%d", k-1)))}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("call %d (-want +got):\n%s", k, diff)
		}
	}
	got, err := h.ws.RetryPendingSync(ctx0, "sandbox", budget)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(RetryResult{Status: RetryComplete, Backend: "sandbox"}, got); diff != "" {
		t.Fatalf("call 7 (-want +got):\n%s", diff)
	}
	if len(h.stored(t)) != 0 {
		t.Fatalf("stored %v", h.stored(t))
	}
}

func TestR6ConcurrentFailuresCoalesceIntoOneIntent(t *testing.T) {
	b := &fakeBackend{fetch: func(int, FetchRequest) (*FetchEnvelope, error) {
		return nil, fmt.Errorf("still unavailable")
	}}
	h := newHarness(t, b, 1000)
	var wg sync.WaitGroup
	results := make([]ExecResult, 2)
	for i := range results {
		wg.Go(func() {
			res, err := h.ws.Exec(ctx0, "build", ExecOptions{})
			if err != nil {
				t.Error(err)
			}
			results[i] = res
		})
	}
	wg.Wait()
	for i, res := range results {
		if res.Sync.Status != SyncPending {
			t.Fatalf("exec %d = %+v", i, res)
		}
	}
	if diff := cmp.Diff([]string{"{backend sandbox attempt 1 notBefore 2000}"}, h.scheduled()); diff != "" {
		t.Fatalf("scheduled (-want +got):\n%s", diff)
	}
	if len(h.stored(t)) != 1 {
		t.Fatalf("stored %v", h.stored(t))
	}
}

func TestR7BoundedBackoffExhaustionStaysVisible(t *testing.T) {
	b := &fakeBackend{fetch: func(int, FetchRequest) (*FetchEnvelope, error) {
		return nil, fmt.Errorf("still unavailable")
	}}
	h := newHarness(t, b, 1000, withRetry(100, 150, 3))
	if _, err := h.ws.Exec(ctx0, "build", ExecOptions{}); err != nil {
		t.Fatal(err)
	}
	var got []RetryResult
	for range 3 {
		r, err := h.ws.RetryPendingSync(ctx0, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	want := []RetryResult{
		{Status: RetryPending, Backend: "sandbox", Attempt: 2, NotBefore: ms(1150), Error: "still unavailable"},
		{Status: RetryPending, Backend: "sandbox", Attempt: 3, NotBefore: ms(1150), Error: "still unavailable"},
		{Status: RetryExhausted, Backend: "sandbox", Attempt: 3, Error: "still unavailable"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("results (-want +got):\n%s", diff)
	}
	wantScheduled := []string{
		"{backend sandbox attempt 1 notBefore 1100}",
		"{backend sandbox attempt 2 notBefore 1150}",
		"{backend sandbox attempt 3 notBefore 1150}",
	}
	if diff := cmp.Diff(wantScheduled, h.scheduled()); diff != "" {
		t.Fatalf("scheduled (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"{backend sandbox attempt 3 notBefore 1150}"}, h.stored(t)); diff != "" {
		t.Fatalf("stored (-want +got):\n%s", diff)
	}
	if _, _, fetches, _, _ := b.stats(); fetches != 4 {
		t.Fatalf("pulls = %d, want 1 post-exec + 3 retries", fetches)
	}
}

func TestR8FailedRetryDisposesEnvelopeHandleClosedOnce(t *testing.T) {
	b := &fakeBackend{fetch: func(int, FetchRequest) (*FetchEnvelope, error) {
		return &FetchEnvelope{CurrentCursor: scheduler.At(1),
			Changes: &fakeChanges{err: fmt.Errorf("cancel retry stream")}}, nil
	}}
	h := newHarness(t, b, 7777)
	h.seed(t, scheduler.Intent{Backend: "sandbox", Attempt: 1, NotBefore: ms(0)})
	got, err := h.ws.RetryPendingSync(ctx0, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := RetryResult{Status: RetryPending, Backend: "sandbox", Attempt: 2, NotBefore: ms(7777 + 2000), Error: "cancel retry stream"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("retry (-want +got):\n%s", diff)
	}
	if err := h.ws.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, _, closes, disposals := b.stats(); disposals != 1 || closes != 1 {
		t.Fatalf("disposals %d closes %d, want 1 and 1", disposals, closes)
	}
}

func TestR9DeferredCommandSchedulesBeforeReturning(t *testing.T) {
	b := &fakeBackend{}
	h := newHarness(t, b, 5000)
	res, err := h.ws.Exec(ctx0, "build", ExecOptions{Sync: SyncDefer})
	if err != nil {
		t.Fatal(err)
	}
	want := SyncResult{Status: SyncPending, Backend: "sandbox", TargetCursor: scheduler.Ptr(scheduler.Baseline)}
	if diff := cmp.Diff(want, res.Sync); diff != "" {
		t.Fatalf("sync (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"{backend sandbox target {0,null} attempt 1 notBefore 6000}"}, h.stored(t)); diff != "" {
		t.Fatalf("stored (-want +got):\n%s", diff)
	}
	if _, _, fetches, _, _ := b.stats(); fetches != 0 {
		t.Fatalf("deferred exec pulled %d times", fetches)
	}
}

func TestR10SettleBeforeCapturingDeferredTarget(t *testing.T) {
	b := &fakeBackend{watermarks: func(_ int, req WatermarksRequest) (Watermarks, error) {
		if req.Settle {
			return Watermarks{CurrentRev: 5}, nil
		}
		return Watermarks{}, nil
	}}
	h := newHarness(t, b, 5000)
	res, err := h.ws.Exec(ctx0, "build", ExecOptions{Sync: SyncDefer})
	if err != nil {
		t.Fatal(err)
	}
	// The connect-time reconcile call carried no settle.
	if diff := cmp.Diff([]WatermarksRequest{{}, {Settle: true}}, b.wmInputs); diff != "" {
		t.Fatalf("watermarks inputs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(scheduler.Ptr(scheduler.At(5)), res.Sync.TargetCursor); diff != "" {
		t.Fatalf("target (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"{backend sandbox target {5,null} attempt 1 notBefore 6000}"}, h.stored(t)); diff != "" {
		t.Fatalf("stored (-want +got):\n%s", diff)
	}
}

func TestR11UnfencedIntentWhenTargetCaptureFails(t *testing.T) {
	b := &fakeBackend{watermarks: func(_ int, req WatermarksRequest) (Watermarks, error) {
		if req.Settle {
			return Watermarks{}, fmt.Errorf("settle failed")
		}
		return Watermarks{}, nil
	}}
	h := newHarness(t, b, 5000)
	res, err := h.ws.Exec(ctx0, "build", ExecOptions{Sync: SyncDefer})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(SyncResult{Status: SyncPending, Error: "settle failed"}, res.Sync); diff != "" {
		t.Fatalf("sync (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"{backend sandbox attempt 1 notBefore 6000}"}, h.stored(t)); diff != "" {
		t.Fatalf("stored (-want +got):\n%s", diff)
	}
}

func TestR12SecondDeferredCommandWidensIntent(t *testing.T) {
	var mu sync.Mutex
	currentRev := int64(0)
	b := &fakeBackend{
		watermarks: func(_ int, req WatermarksRequest) (Watermarks, error) {
			mu.Lock()
			defer mu.Unlock()
			return Watermarks{CurrentRev: currentRev}, nil
		},
		exec: func(int, string) (EventStream, error) {
			mu.Lock()
			currentRev++
			mu.Unlock()
			return &fakeEvents{events: []Event{{Kind: EventExit}}}, nil
		},
	}
	h := newHarness(t, b, 5000)
	first, err := h.ws.Exec(ctx0, "first", ExecOptions{Sync: SyncDefer})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(scheduler.Ptr(scheduler.At(1)), first.Sync.TargetCursor); diff != "" {
		t.Fatalf("first target (-want +got):\n%s", diff)
	}
	h.clk.Set(ms(5500))
	second, err := h.ws.Exec(ctx0, "second", ExecOptions{Sync: SyncDefer})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(scheduler.Ptr(scheduler.At(2)), second.Sync.TargetCursor); diff != "" {
		t.Fatalf("second target (-want +got):\n%s", diff)
	}
	want := []string{
		"{backend sandbox target {1,null} attempt 1 notBefore 6000}",
		"{backend sandbox target {2,null} attempt 1 notBefore 6500}",
	}
	if diff := cmp.Diff(want, h.scheduled()); diff != "" {
		t.Fatalf("scheduled (-want +got):\n%s", diff)
	}
}

func TestR13DeferredExecWithoutSchedulerRejectedUpFront(t *testing.T) {
	b := &fakeBackend{}
	h := newHarness(t, b, 5000, withoutScheduler())
	_, err := h.ws.Exec(ctx0, "build", ExecOptions{Sync: SyncDefer})
	mustContain(t, errorText(err), "retryScheduler")
	if connects, execs, _, _, _ := b.stats(); execs != 0 || connects != 0 || b.pushes != 0 {
		t.Fatalf("connects %d execs %d pushes %d, want none", connects, execs, b.pushes)
	}
}
