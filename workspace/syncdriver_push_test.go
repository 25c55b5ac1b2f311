package workspace

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/benbjohnson/clock"
)

func mustWrite(t *testing.T, st Store, path, content string) int64 {
	t.Helper()
	rev, err := st.WriteFile(sdBackend, path, []byte(content), false)
	if err != nil {
		t.Fatal(err)
	}
	return rev
}

func mustReconcile(t *testing.T, st Store, r *fakeRemote) [2]bool {
	t.Helper()
	f, p, err := reconcileWatermarks(ctxBG, st, sdBackend, r)
	if err != nil {
		t.Fatal(err)
	}
	return [2]bool{f, p}
}

// S16: the remote's log is shorter than our fetch cursor.
func TestS16ReconcileRemoteLogShorterThanFetchCursor(t *testing.T) {
	st, r := NewMemoryStore(), newFakeRemote()
	if err := st.WriteFetchCursor(sdBackend, at(42)); err != nil {
		t.Fatal(err)
	}
	diff(t, "resets", [2]bool{true, false}, mustReconcile(t, st, r))
	diff(t, "fetch cursor", at(0), mustFetchCursor(t, st))
	_, pushRev := mustPushCursor(t, st)
	diff(t, "pushRev", int64(0), pushRev)
	diff(t, "watermarks requests", []WatermarksRequest{{}}, r.wmReqs)
}

// S17: the remote forgot our pushes.
func TestS17ReconcileRemoteForgotOurPushes(t *testing.T) {
	st, r := NewMemoryStore(), newFakeRemote()
	if err := st.SetPushRev(sdBackend, 17); err != nil {
		t.Fatal(err)
	}
	diff(t, "resets", [2]bool{false, true}, mustReconcile(t, st, r))
	c, pushRev := mustPushCursor(t, st)
	diff(t, "push cursor, pushRev", []any{at(0), int64(0)}, []any{c, pushRev})
}

// S18: the remote's own outbound pushRev is ignored.
func TestS18ReconcileIgnoresRemotePushRev(t *testing.T) {
	st, r := NewMemoryStore(), newFakeRemote()
	r.fetchCursor = at(17)
	r.pushRev = 0
	if err := st.SetPushRev(sdBackend, 17); err != nil {
		t.Fatal(err)
	}
	diff(t, "resets", [2]bool{false, false}, mustReconcile(t, st, r))
	_, pushRev := mustPushCursor(t, st)
	diff(t, "pushRev", int64(17), pushRev)
}

// S19: nothing to reset when caught up.
func TestS19ReconcileNoOpWhenCaughtUp(t *testing.T) {
	st, r := NewMemoryStore(), newFakeRemote()
	c := r.write("/seed.txt", "seed")
	mustPullOnce(t, st, r)
	diff(t, "resets", [2]bool{false, false}, mustReconcile(t, st, r))
	diff(t, "fetch cursor", at(c), mustFetchCursor(t, st))
	_, pushRev := mustPushCursor(t, st)
	diff(t, "pushRev", int64(0), pushRev)
}

// A path-aware push cursor ahead of the remote's fetch cursor in the same
// rev is reset too (full compare, not rev-only).
func TestReconcilePushCursorIsPathAware(t *testing.T) {
	st, r := NewMemoryStore(), newFakeRemote()
	r.fetchCursor = atPath(5, "/a")
	if err := st.WritePushCursor(sdBackend, atPath(5, "/b")); err != nil {
		t.Fatal(err)
	}
	diff(t, "resets", [2]bool{false, true}, mustReconcile(t, st, r))
}

// S22: push one bounded unit at a time; the third call sends an empty stream
// acknowledging the full target.
func TestS22PushOneBoundedUnitAtATime(t *testing.T) {
	st, r := NewMemoryStore(), newFakeRemote()
	r1 := mustWrite(t, st, "/one.txt", "one")
	r2 := mustWrite(t, st, "/two.txt", "two")
	call1, err := pushBatch(ctxBG, st, sdBackend, r, nil, 1, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "call 1", pushBatchResult{Pushed: 1, Bytes: 3, Cursor: atPath(r1, "/one.txt"), TargetCursor: at(r2)}, call1)
	var got []pushBatchResult
	for range 2 {
		res, err := pushBatch(ctxBG, st, sdBackend, r, &call1.TargetCursor, 1, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, res)
	}
	diff(t, "calls 2-3", []pushBatchResult{
		{Pushed: 1, Bytes: 3, Cursor: atPath(r2, "/two.txt"), TargetCursor: at(r2)},
		{Complete: true, Cursor: at(r2), TargetCursor: at(r2)},
	}, got)
	var senders []Cursor
	var sizes []int
	for _, p := range r.pushes {
		senders = append(senders, *p.SenderCursor)
		sizes = append(sizes, len(p.Changes))
	}
	diff(t, "sender cursors", []Cursor{atPath(r1, "/one.txt"), atPath(r2, "/two.txt"), at(r2)}, senders)
	diff(t, "push sizes", []int{1, 1, 0}, sizes)
	if !sameFiles(mustFiles(t, st), r.files()) {
		t.Errorf("receiver files differ: %v", r.files())
	}
	c, _ := mustPushCursor(t, st)
	diff(t, "push cursor", at(r2), c)
	diff(t, "remote fetch cursor", at(r2), r.fetchCursor)
}

func TestPushOnce(t *testing.T) {
	st, r := NewMemoryStore(), newFakeRemote()
	diff(t, "nothing to push: pushes", 0, func() int {
		n, err := pushOnce(ctxBG, st, sdBackend, r, DefaultPushBudget)
		if err != nil {
			t.Fatal(err)
		}
		return n + len(r.pushes)
	}())
	for i := range 300 {
		mustWrite(t, st, fmt.Sprintf("/f%03d", i), "x")
	}
	n, err := pushOnce(ctxBG, st, sdBackend, r, DefaultPushBudget)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "pushed", 300, n)
	diff(t, "push calls (256 + 44)", 2, len(r.pushes))
	c, rev := mustPushCursor(t, st)
	diff(t, "push cursor, pushRev", []any{at(300), int64(300)}, []any{c, rev})
	n, err = pushOnce(ctxBG, st, sdBackend, r, DefaultPushBudget)
	diff(t, "second pushOnce", []any{0, nil, 2}, []any{n, err, len(r.pushes)})
}

// A remote acknowledging less than was sent trips the cross-side assertion
// and the push cursor stays put.
func TestPushBatchCrossSide(t *testing.T) {
	st := NewMemoryStore()
	mustWrite(t, st, "/a", "a")
	r := &lyingPushRemote{fakeRemote: newFakeRemote()}
	_, err := pushBatch(ctxBG, st, sdBackend, r, nil, 10, 100)
	if !errors.Is(err, ErrCrossSideInvariant) {
		t.Fatalf("err = %v", err)
	}
	c, _ := mustPushCursor(t, st)
	diff(t, "push cursor", at(0), c)
}

type lyingPushRemote struct{ *fakeRemote }

func (l *lyingPushRemote) Push(ctx context.Context, req PushRequest) (PushResult, error) {
	res, err := l.fakeRemote.Push(ctx, req)
	res.AppliedPushCursor = at(0)
	return res, err
}

// maxWallTime is read from the injected clock, never the wall clock.
func TestPullBatchWallTimeUsesClock(t *testing.T) {
	st, r := &hookStore{Store: NewMemoryStore()}, newFakeRemote()
	ra := r.write("/a", "a")
	rb := r.write("/b", "b")
	clk := clock.NewMock()
	st.beforeApply = func(int, []Change) error {
		clk.Add(time.Second)
		return nil
	}
	res, err := pullBatch(ctxBG, st, sdBackend, r, nil, Budget{MaxEntries: 10, MaxBytes: 100, MaxWallTime: 500 * time.Millisecond}, clk, 0)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "result", pullResult{Applied: 1, Skipped: []string{}, Entries: 1, Bytes: 1, Cursor: atPath(ra, "/a"), TargetCursor: at(rb)}, res)
}

// A small PushBudget splits one pushOnce into batches: entry-bound ones,
// byte-bound ones (past the first change), and a first change larger than
// the whole byte budget still goes alone.
func TestPushOnceSmallBudget(t *testing.T) {
	for _, tc := range []struct {
		name   string
		budget PushBudget
		sizes  []int // changes per remote call
	}{
		// A full batch is not probed for a successor: the last call is an
		// empty one acknowledging the target (SPEC 9 S22).
		{"one entry per batch", PushBudget{MaxEntries: 1, MaxBytes: 1 << 20}, []int{1, 1, 1, 1, 1, 0}},
		{"two entries per batch", PushBudget{MaxEntries: 2, MaxBytes: 1 << 20}, []int{2, 2, 1}},
		{"bytes for two entries", PushBudget{MaxEntries: 256, MaxBytes: 8}, []int{2, 2, 1}},
		{"first entry over the byte budget", PushBudget{MaxEntries: 256, MaxBytes: 1}, []int{1, 1, 1, 1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, r := NewMemoryStore(), newFakeRemote()
			for i := range 5 {
				mustWrite(t, st, fmt.Sprintf("/f%d", i), "four")
			}
			n, err := pushOnce(ctxBG, st, sdBackend, r, tc.budget)
			if err != nil {
				t.Fatal(err)
			}
			var sizes []int
			for _, p := range r.pushes {
				sizes = append(sizes, len(p.Changes))
			}
			diff(t, "pushed", 5, n)
			diff(t, "changes per push call", tc.sizes, sizes)
			if !sameFiles(mustFiles(t, st), r.files()) {
				t.Errorf("receiver files differ: %v", r.files())
			}
			c, _ := mustPushCursor(t, st)
			diff(t, "push cursor", at(5), c)
		})
	}
}
