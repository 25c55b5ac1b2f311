package workspace

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace/internal/plant"
)

// sdBackend is the backend key of the sync-driver tests.
const sdBackend = "sandbox"

var ctxBG = context.Background()

func at(rev int64) Cursor                  { return scheduler.At(rev) }
func atPath(rev int64, path string) Cursor { return scheduler.AtPath(rev, path) }
func cursorPtr(c Cursor) *Cursor           { return &c }

func mustFetchCursor(t *testing.T, st Store) Cursor {
	t.Helper()
	c, err := st.FetchCursor(sdBackend)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustPushCursor(t *testing.T, st Store) (Cursor, int64) {
	t.Helper()
	c, err := st.PushCursor(sdBackend)
	if err != nil {
		t.Fatal(err)
	}
	rev, err := st.PushRev(sdBackend)
	if err != nil {
		t.Fatal(err)
	}
	return c, rev
}

func mustFiles(t *testing.T, st Store) []File {
	t.Helper()
	fs, err := st.Files(sdBackend)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

func mustPullOnce(t *testing.T, st Store, r *fakeRemote) pullResult {
	t.Helper()
	res, err := pullOnce(ctxBG, st, sdBackend, r, 0)
	if err != nil {
		t.Fatalf("pullOnce: %v", err)
	}
	return res
}

func mustPullBatch(t *testing.T, st Store, r *fakeRemote, target *Cursor, b Budget) pullResult {
	t.Helper()
	res, err := pullBatch(ctxBG, st, sdBackend, r, target, b, nil, 0)
	if err != nil {
		t.Fatalf("pullBatch: %v", err)
	}
	return res
}

// checkDisposed asserts that every stream the remote handed out was closed
// exactly once (SPEC 6.3 step 9).
func checkDisposed(t *testing.T, r *fakeRemote, wantStreams int) {
	t.Helper()
	if len(r.streams) != wantStreams {
		t.Errorf("streams opened = %d, want %d", len(r.streams), wantStreams)
	}
	for i, s := range r.streams {
		if s.closes != 1 {
			t.Errorf("stream %d closed %d times, want 1", i+1, s.closes)
		}
	}
}

func diff(t *testing.T, what string, want, got any) {
	t.Helper()
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", what, d)
	}
}

func writeFiles(r *fakeRemote, format string, n int) {
	for i := range n {
		r.write(fmt.Sprintf(format, i), fmt.Sprintf("content %d", i))
	}
}

// S1: a pull at the current rev returns early without reading the stream.
func TestS1NoOpPullAtCurrentRev(t *testing.T) {
	st, r := NewMemoryStore(), newFakeRemote()
	r.write("/a.txt", "aaa")
	diff(t, "first pull", pullResult{Complete: true, Applied: 1, Skipped: []string{}, Entries: 1, Bytes: 3,
		Cursor: at(2), TargetCursor: at(2)}, mustPullOnce(t, st, r))
	diff(t, "second pull", pullResult{Complete: true, Skipped: []string{}, Cursor: at(2), TargetCursor: at(2)},
		mustPullOnce(t, st, r))
	if got := r.streams[1].reads; got != 0 {
		t.Errorf("second stream reads = %d, want 0", got)
	}
	checkDisposed(t, r, 2)
}

// S4 and S5: a remote reporting a lower appliedPushCursor resets the scalar
// pushRev and retries once; a persistent lie degrades to a baseline resync.
func TestS4S5PushDivergenceResetsAndRetriesOnce(t *testing.T) {
	for _, tc := range []struct {
		name    string
		lieFrom int // lie on fetch calls <= lieFrom
	}{{"S4 lie once", 1}, {"S5 lie always", 1 << 30}} {
		t.Run(tc.name, func(t *testing.T) {
			st, r := NewMemoryStore(), newFakeRemote()
			if err := st.SetPushRev(sdBackend, 42); err != nil {
				t.Fatal(err)
			}
			r.write("/seed.txt", "seed")
			r.lieApplied = func(call int) *Cursor {
				if call <= tc.lieFrom {
					return cursorPtr(scheduler.Baseline)
				}
				return nil
			}
			diff(t, "result", pullResult{Complete: true, Applied: 1, Skipped: []string{}, Entries: 1, Bytes: 4,
				Cursor: at(2), TargetCursor: at(2)}, mustPullOnce(t, st, r))
			_, pushRev := mustPushCursor(t, st)
			diff(t, "pushRev", int64(0), pushRev)
			diff(t, "afters", []Cursor{at(0), at(0)}, r.afters)
			if r.streams[0].reads != 0 {
				t.Errorf("diverged stream was read %d times", r.streams[0].reads)
			}
			checkDisposed(t, r, 2)
		})
	}
}

// S7 (and S9): a same-rev partial appliedPushCursor is not a divergence and
// fails the cross-side assertion; the envelope is still disposed once.
func TestS7PartialSameRevApplyIsFatal(t *testing.T) {
	st, r := NewMemoryStore(), newFakeRemote()
	if err := st.SetPushRev(sdBackend, 42); err != nil {
		t.Fatal(err)
	}
	r.fetchCursor = atPath(42, "/partial.txt")
	_, err := pullOnce(ctxBG, st, sdBackend, r, 0)
	if !errors.Is(err, ErrCrossSideInvariant) {
		t.Fatalf("err = %v, want ErrCrossSideInvariant", err)
	}
	var cse *CrossSideError
	if !errors.As(err, &cse) {
		t.Fatalf("err %T is not a *CrossSideError", err)
	}
	diff(t, "message", `cross-side invariant violated: appliedPushCursor ({42,"/partial.txt"}) < pushCursor ({42,null})`, err.Error())
	diff(t, "fetch cursor", at(0), mustFetchCursor(t, st))
	checkDisposed(t, r, 1)
}

// S8: a partial appliedPushCursor beyond our push rev is fine.
func TestS8PartialCursorBeyondOurPushIsFine(t *testing.T) {
	st, r := NewMemoryStore(), newFakeRemote()
	if err := st.SetPushRev(sdBackend, 42); err != nil {
		t.Fatal(err)
	}
	r.fetchCursor = atPath(43, "/partial.txt")
	diff(t, "result", pullResult{Complete: true, Skipped: []string{}, Cursor: at(1), TargetCursor: at(1)},
		mustPullOnce(t, st, r))
	checkDisposed(t, r, 1)
}

// S11: pullOnce applies in batches of 256 and checkpoints the fetch cursor
// after each committed batch.
func TestS11FetchCursorAdvancesPerCommittedBatch(t *testing.T) {
	r := newFakeRemote()
	writeFiles(r, "/f%04d", 400) // revs 2..401
	var samples []Cursor
	var sizes []int
	st := &hookStore{Store: NewMemoryStore()}
	st.beforeApply = func(_ int, changes []Change) error {
		samples = append(samples, mustFetchCursor(t, st))
		sizes = append(sizes, len(changes))
		return nil
	}
	res := mustPullOnce(t, st, r)
	diff(t, "samples", []Cursor{at(0), atPath(257, "/f0255")}, samples)
	diff(t, "batch sizes", []int{256, 144}, sizes)
	diff(t, "applied", 400, res.Applied)
	diff(t, "final cursor", at(r.currentRev), mustFetchCursor(t, st))
	checkDisposed(t, r, 1)
}

// S12: an older pull overlapped by a newer one cannot move the cursor back.
// The overlap is made deterministic by running the newer pull inside the
// older pull's first apply.
func TestS12OlderPullCannotMoveCursorBackward(t *testing.T) {
	r := newFakeRemote()
	writeFiles(r, "/f%03d", 300)
	var newest Cursor
	var samples []Cursor
	st := &hookStore{Store: NewMemoryStore()}
	st.beforeApply = func(call int, _ []Change) error {
		switch call {
		case 1:
			r.write("/newer.txt", "newer")
			newest = at(r.currentRev)
			st.beforeApply = nil // the newer pull runs unobserved
			res := mustPullOnce(t, st, r)
			diff(t, "newer pull applied", 301, res.Applied)
			diff(t, "cursor after newer pull", newest, mustFetchCursor(t, st))
			st.beforeApply = func(int, []Change) error {
				samples = append(samples, mustFetchCursor(t, st))
				return nil
			}
		}
		return nil
	}
	res := mustPullOnce(t, st, r)
	diff(t, "older pull applied", 0, res.Applied)
	diff(t, "samples before the older pull's second batch", []Cursor{newest}, samples)
	diff(t, "final cursor", newest, mustFetchCursor(t, st))
	if !sameFiles(r.files(), mustFiles(t, st)) {
		t.Errorf("local files differ from remote files")
	}
	checkDisposed(t, r, 2)
}

// S13: a pull interrupted inside one large same-rev rename resumes inside
// that rev.
func TestS13ResumeInsideLargeSameRevRename(t *testing.T) {
	r := newFakeRemote()
	writeFiles(r, "/src/f%03d.txt", 300)
	st := &hookStore{Store: NewMemoryStore()}
	if got := mustPullOnce(t, st, r).Applied; got != 300 {
		t.Fatalf("initial sync applied %d, want 300", got)
	}
	var ops []fakeOp
	for i := range 300 {
		ops = append(ops,
			fakeOp{path: fmt.Sprintf("/dst/f%03d.txt", i), content: fmt.Sprintf("content %d", i)},
			fakeOp{path: fmt.Sprintf("/src/f%03d.txt", i), deleted: true})
	}
	rename := r.applyAtOneRev(ops...)

	st.applies = 0
	st.beforeApply = func(call int, _ []Change) error {
		if call == 2 {
			return fmt.Errorf("injected pull failure in batch 2: %w", errInjected)
		}
		return nil
	}
	_, err := pullOnce(ctxBG, st, sdBackend, r, 0)
	if !errors.Is(err, errInjected) {
		t.Fatalf("err = %v, want the injected pull failure", err)
	}
	diff(t, "cursor after failure", atPath(rename, "/dst/f255.txt"), mustFetchCursor(t, st))

	st.beforeApply = nil
	res := mustPullOnce(t, st, r)
	diff(t, "resume", pullResult{Complete: true, Applied: 344, Skipped: []string{}, Entries: 344,
		Bytes: res.Bytes, Cursor: at(rename), TargetCursor: at(rename)}, res)
	diff(t, "last after", atPath(rename, "/dst/f255.txt"), r.afters[len(r.afters)-1])
	files := mustFiles(t, st)
	diff(t, "file count", 300, len(files))
	diff(t, "first file", "/dst/f000.txt content 0", files[0].Path+" "+string(files[0].Content))
	diff(t, "last file", "/dst/f299.txt content 299", files[299].Path+" "+string(files[299].Content))
	checkDisposed(t, r, 3)
}

// S20: one entry per batch, later calls resume at the captured target; the
// second call is pending although nothing remains (end not probed).
func TestS20OneEntryPerBatchResumeAtCapturedTarget(t *testing.T) {
	st, r := NewMemoryStore(), newFakeRemote()
	r1 := r.write("/one.txt", "one")
	r2 := r.write("/two.txt", "two")
	b := Budget{MaxEntries: 1, MaxBytes: 1024}
	call1 := mustPullBatch(t, st, r, nil, b)
	diff(t, "call 1", pullResult{Applied: 1, Skipped: []string{}, Entries: 1, Bytes: 3,
		Cursor: atPath(r1, "/one.txt"), TargetCursor: at(r2)}, call1)
	call2 := mustPullBatch(t, st, r, &call1.TargetCursor, b)
	diff(t, "call 2", pullResult{Applied: 1, Skipped: []string{}, Entries: 1, Bytes: 3,
		Cursor: atPath(r2, "/two.txt"), TargetCursor: at(r2)}, call2)
	call3 := mustPullBatch(t, st, r, &call1.TargetCursor, b)
	diff(t, "call 3", pullResult{Complete: true, Skipped: []string{}, Cursor: at(r2), TargetCursor: at(r2)}, call3)
	diff(t, "throughs", []*Cursor{nil, cursorPtr(at(r2)), cursorPtr(at(r2))}, r.throughs)
	diff(t, "files", []File{{Path: "/one.txt", Content: []byte("one"), Rev: r1}, {Path: "/two.txt", Content: []byte("two"), Rev: r2}},
		mustFiles(t, st))
	checkDisposed(t, r, 3)
}

// S23: an old target that the cursor already passed completes without a
// remote call and leaves the advanced cursor alone.
func TestS23AlreadySatisfiedOldTarget(t *testing.T) {
	st, r := NewMemoryStore(), newFakeRemote()
	oldTarget := at(r.write("/one.txt", "one"))
	r.write("/two.txt", "two")
	mustPullOnce(t, st, r)
	advanced := mustFetchCursor(t, st)
	fetches := r.fetches
	diff(t, "result", pullResult{Complete: true, Skipped: []string{}, Cursor: advanced, TargetCursor: oldTarget},
		mustPullBatch(t, st, r, &oldTarget, DefaultBudget))
	diff(t, "remote calls", fetches, r.fetches)
	diff(t, "stored cursor", advanced, mustFetchCursor(t, st))
}

// QUIRK (SPEC 6.3): pullOnce's push-divergence reset writes only the legacy
// scalar, so a path-aware push row keeps reading back; pullBatch's reset
// writes both.
func TestQuirkPullOnceResetsOnlyScalarPushRev(t *testing.T) {
	st, r := NewMemoryStore(), newFakeRemote()
	if err := st.WritePushCursor(sdBackend, atPath(42, "/p")); err != nil {
		t.Fatal(err)
	}
	r.write("/seed.txt", "seed")
	mustPullOnce(t, st, r)
	c, rev := mustPushCursor(t, st)
	diff(t, "after pullOnce: push cursor, pushRev", []any{atPath(42, "/p"), int64(0)}, []any{c, rev})
	diff(t, "pullOnce fetches (diverged, retried)", 2, r.fetches)

	r.write("/more.txt", "more")
	mustPullBatch(t, st, r, nil, DefaultBudget)
	c, rev = mustPushCursor(t, st)
	diff(t, "after pullBatch: push cursor, pushRev", []any{at(0), int64(0)}, []any{c, rev})
	checkDisposed(t, r, 4)
}

// QUIRK (SPEC 6.4 off-by-one, R5): six entries at one rev with maxEntries 1
// need seven calls; the seventh observes the end and completes with 0.
func TestQuirkPullBatchEndOfStreamOffByOne(t *testing.T) {
	st, r := NewMemoryStore(), newFakeRemote()
	var ops []fakeOp
	for i := range 6 {
		ops = append(ops, fakeOp{path: fmt.Sprintf("/generated/%d", i), content: "x"})
	}
	rev := r.applyAtOneRev(ops...)
	target := at(rev)
	var got, want []pullResult
	for k := 1; k <= 7; k++ {
		got = append(got, mustPullBatch(t, st, r, &target, Budget{MaxEntries: 1, MaxBytes: 1024}))
		if k <= 6 {
			want = append(want, pullResult{Applied: 1, Skipped: []string{}, Entries: 1, Bytes: 1,
				Cursor: atPath(rev, fmt.Sprintf("/generated/%d", k-1)), TargetCursor: target})
		} else {
			want = append(want, pullResult{Complete: true, Skipped: []string{}, Cursor: target, TargetCursor: target})
		}
	}
	diff(t, "seven calls", want, got)
	checkDisposed(t, r, 7)
}

// The fetch cursor is monotone: an older, lower checkpoint never lands.
func TestFetchCursorMonotone(t *testing.T) {
	st, r := NewMemoryStore(), newFakeRemote()
	writeFiles(r, "/f%d", 3)
	mustPullOnce(t, st, r)
	// A stale pull that still believes it is at the baseline replays the
	// whole log; every checkpoint it writes is behind and skipped.
	if err := st.WriteFetchCursor(sdBackend, atPath(3, "/f1")); err != nil {
		t.Fatal(err)
	}
	var wrote []bool
	for _, c := range []Cursor{atPath(2, "/f0"), atPath(3, "/f1"), at(3), at(4), atPath(2, "/f0")} {
		ok, err := st.WriteFetchCursorIfAhead(sdBackend, c)
		if err != nil {
			t.Fatal(err)
		}
		wrote = append(wrote, ok)
	}
	diff(t, "writes", []bool{false, false, true, true, false}, wrote)
	diff(t, "cursor", at(4), mustFetchCursor(t, st))
}

// Every exit path of pullOnce and pullBatch disposes each envelope exactly
// once (S9-style).
func TestEnvelopeDisposedExactlyOnce(t *testing.T) {
	fail := func(call int, _ []Change) error { return fmt.Errorf("apply failed: %w", errInjected) }
	for _, tc := range []struct {
		name        string
		setup       func(st *hookStore, r *fakeRemote)
		batch       bool
		wantErr     error // nil: success
		wantStreams int
	}{
		{"pullOnce happy", func(*hookStore, *fakeRemote) {}, false, nil, 1},
		{"pullOnce early return", func(st *hookStore, _ *fakeRemote) { st.WriteFetchCursor(sdBackend, at(2)) }, false, nil, 1},
		{"pullOnce divergence retry", func(st *hookStore, _ *fakeRemote) { st.WriteFetchCursor(sdBackend, at(9)) }, false, nil, 2},
		{"pullOnce cross-side", func(st *hookStore, r *fakeRemote) {
			st.SetPushRev(sdBackend, 42)
			r.fetchCursor = atPath(42, "/partial.txt")
		}, false, ErrCrossSideInvariant, 1},
		{"pullOnce read error", func(_ *hookStore, r *fakeRemote) { r.failRead = map[int]int{1: 2} }, false, errInjected, 1},
		{"pullOnce apply error", func(st *hookStore, _ *fakeRemote) { st.beforeApply = fail }, false, errInjected, 1},
		{"pullOnce fetch error", func(_ *hookStore, r *fakeRemote) {
			r.fetchErr = func(int) error { return errInjected }
		}, false, errInjected, 0},
		{"pullBatch complete", func(*hookStore, *fakeRemote) {}, true, nil, 1},
		{"pullBatch pending", func(_ *hookStore, r *fakeRemote) { r.write("/b", "b") }, true, nil, 1},
		{"pullBatch divergence retry", func(st *hookStore, _ *fakeRemote) { st.WritePushCursor(sdBackend, at(5)) }, true, nil, 2},
		{"pullBatch cross-side", func(st *hookStore, r *fakeRemote) {
			st.WritePushCursor(sdBackend, at(42))
			r.fetchCursor = atPath(42, "/partial.txt")
		}, true, ErrCrossSideInvariant, 1},
		{"pullBatch read error", func(_ *hookStore, r *fakeRemote) { r.failRead = map[int]int{1: 1} }, true, errInjected, 1},
		{"pullBatch apply error", func(st *hookStore, _ *fakeRemote) { st.beforeApply = fail }, true, errInjected, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, r := &hookStore{Store: NewMemoryStore()}, newFakeRemote()
			r.write("/a", "a")
			tc.setup(st, r)
			var err error
			if tc.batch {
				_, err = pullBatch(ctxBG, st, sdBackend, r, nil, Budget{MaxEntries: 1, MaxBytes: 10}, nil, 0)
			} else {
				_, err = pullOnce(ctxBG, st, sdBackend, r, 0)
			}
			if (tc.wantErr == nil) != (err == nil) || (err != nil && !errors.Is(err, tc.wantErr)) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			checkDisposed(t, r, tc.wantStreams)
		})
	}
}

// testTransportError stands in for a transport-class error of the remote.
type testTransportError struct{ msg string }

func (e *testTransportError) Error() string { return e.msg }

// Remote errors keep their text and their class.
func TestRemoteErrorsKeepTextAndClass(t *testing.T) {
	for _, op := range []string{"fetchChanges", "fetchChanges.next"} {
		t.Run(op, func(t *testing.T) {
			st, r := NewMemoryStore(), newFakeRemote()
			r.write("/a", "a")
			orig := &testTransportError{msg: "container exited during post-exec pull"}
			if op == "fetchChanges" {
				r.fetchErr = func(int) error { return orig }
			} else {
				r.failRead = map[int]int{1: 1}
			}
			_, err := pullOnce(ctxBG, st, sdBackend, r, 0)
			var re *RPCError
			if !errors.As(err, &re) {
				t.Fatalf("err %v (%T) is not an *RPCError", err, err)
			}
			diff(t, "op", op, re.Op)
			if op == "fetchChanges" {
				var te *testTransportError
				if !errors.As(err, &te) || te != orig {
					t.Errorf("class lost: %v", err)
				}
				diff(t, "text", orig.msg, err.Error())
			} else if !errors.Is(err, errInjected) {
				t.Errorf("class lost: %v", err)
			}
		})
	}
}

func TestValidateBudget(t *testing.T) {
	const entries = "Sync batch maxEntries must be a positive safe integer"
	const bytes = "Sync batch maxBytes must be a positive safe integer"
	const wall = "Sync batch maxWallTimeMs must be a positive finite number"
	for _, tc := range []struct {
		b    Budget
		want string
	}{
		{DefaultBudget, ""},
		{Budget{MaxEntries: 1, MaxBytes: 1}, ""},
		{Budget{MaxEntries: maxSafeInteger, MaxBytes: maxSafeInteger, MaxWallTime: 1}, ""},
		{Budget{MaxEntries: 0, MaxBytes: 1}, entries},
		{Budget{MaxEntries: -1, MaxBytes: 1}, entries},
		{Budget{MaxEntries: maxSafeInteger + 1, MaxBytes: 1}, entries},
		{Budget{MaxEntries: 1, MaxBytes: 0}, bytes},
		{Budget{MaxEntries: 1, MaxBytes: -5}, bytes},
		{Budget{MaxEntries: 1, MaxBytes: maxSafeInteger + 1}, bytes},
		{Budget{MaxEntries: 0, MaxBytes: 0}, entries},
		{Budget{MaxEntries: 1, MaxBytes: 1, MaxWallTime: -1}, wall},
	} {
		got := ""
		if err := validateBudget(tc.b); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("validateBudget(%+v) = %q, want %q", tc.b, got, tc.want)
		}
	}
	// pullBatch validates before any remote call.
	r := newFakeRemote()
	if _, err := pullBatch(ctxBG, NewMemoryStore(), sdBackend, r, nil, Budget{}, nil, 0); err == nil || err.Error() != entries {
		t.Errorf("pullBatch with a zero budget: err = %v", err)
	}
	diff(t, "fetches", 0, r.fetches)
}

// Deviation from SPEC 6.4: with whole-content entries, an entry that would
// take the bytes past MaxBytes ends the call before it is applied, unless it
// is the first entry with content in the call.
func TestPullBatchByteBudgetDeviation(t *testing.T) {
	st, r := NewMemoryStore(), newFakeRemote()
	ra := r.write("/a", string(make([]byte, 600)))
	rb := r.write("/b", string(make([]byte, 600)))
	rc := r.write("/c", string(make([]byte, 2000)))
	rd := r.write("/d", string(make([]byte, 10)))
	b := Budget{MaxEntries: 10, MaxBytes: 1024}
	var got []pullResult
	for range 4 {
		got = append(got, mustPullBatch(t, st, r, nil, b))
	}
	want := []pullResult{
		{Applied: 1, Skipped: []string{}, Entries: 1, Bytes: 600, Cursor: atPath(ra, "/a"), TargetCursor: at(rd)},
		{Applied: 1, Skipped: []string{}, Entries: 1, Bytes: 600, Cursor: atPath(rb, "/b"), TargetCursor: at(rd)},
		// The 2000-byte entry exceeds the budget alone and still moves.
		{Applied: 1, Skipped: []string{}, Entries: 1, Bytes: 2000, Cursor: atPath(rc, "/c"), TargetCursor: at(rd)},
		{Complete: true, Applied: 1, Skipped: []string{}, Entries: 1, Bytes: 10, Cursor: at(rd), TargetCursor: at(rd)},
	}
	diff(t, "calls", want, got)
	// A budget that fits both 600-byte entries takes them together.
	st2, r2 := NewMemoryStore(), newFakeRemote()
	r2.write("/a", string(make([]byte, 600)))
	r2.write("/b", string(make([]byte, 600)))
	diff(t, "entries with maxBytes 1200", 2, mustPullBatch(t, st2, r2, nil, Budget{MaxEntries: 10, MaxBytes: 1200}).Entries)
}

// plant.CursorBeforeApply: with the bug planted, an apply that fails after
// the checkpoint (a crash there is the same window) leaves the fetch cursor
// past entries that were never applied.
func TestMutantCursorBeforeApply(t *testing.T) {
	for _, tc := range []struct {
		name       string
		mut        plant.Set
		wantCursor func(ra, rc int64) Cursor
	}{
		{"correct", 0, func(int64, int64) Cursor { return at(0) }},
		{"planted", plant.CursorBeforeApply, func(_, rc int64) Cursor { return atPath(rc, "/c") }},
	} {
		t.Run("pullOnce "+tc.name, func(t *testing.T) {
			st, r := &hookStore{Store: NewMemoryStore()}, newFakeRemote()
			ra, _ := r.write("/a", "a"), r.write("/b", "b")
			rc := r.write("/c", "c")
			st.beforeApply = func(int, []Change) error { return errInjected }
			_, err := pullOnce(ctxBG, st, sdBackend, r, tc.mut)
			if !errors.Is(err, errInjected) {
				t.Fatalf("err = %v, want the injected apply failure", err)
			}
			diff(t, "cursor", tc.wantCursor(ra, rc), mustFetchCursor(t, st))
			diff(t, "files", 0, len(mustFiles(t, st)))
		})
		t.Run("pullBatch "+tc.name, func(t *testing.T) {
			st, r := &hookStore{Store: NewMemoryStore()}, newFakeRemote()
			ra, _ := r.write("/a", "a"), r.write("/b", "b")
			st.beforeApply = func(int, []Change) error { return errInjected }
			_, err := pullBatch(ctxBG, st, sdBackend, r, nil, DefaultBudget, nil, tc.mut)
			if !errors.Is(err, errInjected) {
				t.Fatalf("err = %v, want the injected apply failure", err)
			}
			want := at(0)
			if tc.mut != 0 {
				want = atPath(ra, "/a")
			}
			diff(t, "cursor", want, mustFetchCursor(t, st))
			diff(t, "files", 0, len(mustFiles(t, st)))
		})
	}
}
