package workspace

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// storeImpl opens a fresh store; reopen simulates a host restart (the
// memory store is kept by the simulator as the host's disk, so reopening it
// is the same instance; SQLite closes the file and opens it again).
type storeImpl struct {
	name string
	open func(t *testing.T) (st Store, reopen func() Store)
}

func storeImpls() []storeImpl {
	return []storeImpl{
		{"memory", func(*testing.T) (Store, func() Store) {
			st := NewMemoryStore()
			return st, func() Store { return st }
		}},
		{"sqlite", func(t *testing.T) (Store, func() Store) {
			path := filepath.Join(t.TempDir(), "store.db")
			st := mustOpenSQLite(t, path)
			cur := st
			return st, func() Store {
				if err := cur.Close(); err != nil {
					t.Fatal(err)
				}
				cur = mustOpenSQLite(t, path)
				return cur
			}
		}},
	}
}

func mustOpenSQLite(t *testing.T, path string) *SQLiteStore {
	t.Helper()
	st, err := OpenSQLiteStore(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// storeContract is the shared table every Store implementation passes.
var storeContract = []struct {
	name string
	run  func(t *testing.T, st Store, reopen func() Store)
}{
	{"fresh namespace", func(t *testing.T, st Store, _ func() Store) {
		sc := snapshotStore(t, st, "b")
		diff(t, "fresh", storeState{Files: []File{}}, sc)
	}},
	{"write stamps one rev each and coalesces the log", func(t *testing.T, st Store, _ func() Store) {
		var revs []int64
		for _, w := range []struct {
			path, content string
			deleted       bool
		}{{"/a", "1", false}, {"/b", "2", false}, {"/a", "3", false}, {"/b", "", true}, {"/gone", "", true}, {"", "root", false}} {
			rev, err := st.WriteFile("b", w.path, []byte(w.content), w.deleted)
			must(t, err)
			revs = append(revs, rev)
		}
		diff(t, "revs", []int64{1, 2, 3, 4, 5, 6}, revs)
		diff(t, "state", storeState{
			CurrentRev: 6,
			Files:      []File{{Path: "", Content: []byte("root"), Rev: 6}, {Path: "/a", Content: []byte("3"), Rev: 3}},
			Log: []Change{{Rev: 3, Path: "/a", Content: []byte("3")}, {Rev: 4, Path: "/b", Deleted: true},
				{Rev: 5, Path: "/gone", Deleted: true}, {Rev: 6, Path: "", Content: []byte("root")}},
		}, snapshotStore(t, st, "b"))
	}},
	{"content is copied in and out", func(t *testing.T, st Store, _ func() Store) {
		buf := []byte("abc")
		_, err := st.WriteFile("b", "/a", buf, false)
		must(t, err)
		buf[0] = 'X'
		fs, err := st.Files("b")
		must(t, err)
		fs[0].Content[1] = 'Y'
		diff(t, "content", []byte("abc"), snapshotStore(t, st, "b").Files[0].Content)
		_, err = st.WriteFile("b", "/empty", nil, false)
		must(t, err)
		diff(t, "empty content is non-nil", []byte{}, snapshotStore(t, st, "b").Files[1].Content)
	}},
	{"local changes range and limit", func(t *testing.T, st Store, _ func() Store) {
		for _, p := range []string{"/a", "/b", "/c"} {
			_, err := st.WriteFile("b", p, []byte(p), false)
			must(t, err)
		}
		// A second namespace never leaks in.
		_, err := st.WriteFile("other", "/z", []byte("z"), false)
		must(t, err)
		for _, tc := range []struct {
			after, through Cursor
			limit          int
			want           []string
		}{
			{at(0), at(3), 0, []string{"/a", "/b", "/c"}},
			{at(0), at(3), 2, []string{"/a", "/b"}},
			{at(1), at(3), 0, []string{"/b", "/c"}},
			{atPath(1, "/a"), at(2), 0, []string{"/b"}},
			{atPath(1, ""), atPath(2, "/b"), 0, []string{"/a", "/b"}},
			{atPath(2, "/b"), atPath(3, "/b"), 0, nil},
			{at(3), at(9), 0, nil},
		} {
			cs, err := st.LocalChanges("b", tc.after, tc.through, tc.limit)
			must(t, err)
			var got []string
			for _, c := range cs {
				got = append(got, c.Path)
			}
			diff(t, fmt.Sprintf("(%s, %s] limit %d", tc.after, tc.through, tc.limit), tc.want, got)
		}
	}},
	{"apply upstream", func(t *testing.T, st Store, _ func() Store) {
		_, err := st.WriteFile("b", "/local", []byte("mine"), false)
		must(t, err)
		_, err = st.WriteFile("b", "/both", []byte("mine"), false)
		must(t, err)
		_, err = st.WriteFile("b", "/same", []byte("same"), false)
		must(t, err)
		n, err := st.ApplyUpstream("b", []Change{
			{Rev: 7, Path: "/new", Content: []byte("up")},    // counts
			{Rev: 7, Path: "/same", Content: []byte("same")}, // alreadyApplied
			{Rev: 8, Path: "/both", Content: []byte("up")},   // counts, supersedes
			{Rev: 8, Path: "/missing", Deleted: true},        // counts, no-op
		})
		must(t, err)
		diff(t, "applied", 3, n)
		n, err = st.ApplyUpstream("b", []Change{{Rev: 7, Path: "/new", Content: []byte("up")}, {Rev: 9, Path: "/local", Deleted: true}})
		must(t, err)
		diff(t, "applied on replay", 1, n)
		diff(t, "state", storeState{
			CurrentRev: 3,
			Files: []File{{Path: "/both", Content: []byte("up"), Rev: 8}, {Path: "/new", Content: []byte("up"), Rev: 7},
				{Path: "/same", Content: []byte("same"), Rev: 3}},
			Log: []Change{{Rev: 3, Path: "/same", Content: []byte("same")}},
		}, snapshotStore(t, st, "b"))
	}},
	{"fetch cursor", func(t *testing.T, st Store, _ func() Store) {
		must(t, st.WriteFetchCursor("b", atPath(0, "/ignored")))
		diff(t, "rev 0 reads as baseline", at(0), mustCursor(t)(st.FetchCursor("b")))
		var wrote []bool
		for _, c := range []Cursor{atPath(5, "/b"), atPath(5, "/a"), atPath(5, "/b"), atPath(5, ""), at(5), atPath(5, "/z"), at(4), atPath(6, "")} {
			ok, err := st.WriteFetchCursorIfAhead("b", c)
			must(t, err)
			wrote = append(wrote, ok)
		}
		diff(t, "if-ahead writes", []bool{true, false, false, false, true, false, false, true}, wrote)
		diff(t, "cursor", atPath(6, ""), mustCursor(t)(st.FetchCursor("b")))
		must(t, st.WriteFetchCursor("b", at(0)))
		diff(t, "reset", at(0), mustCursor(t)(st.FetchCursor("b")))
		if err := st.WriteFetchCursor("b", at(-1)); err == nil {
			t.Error("negative rev accepted")
		}
	}},
	{"push cursor", func(t *testing.T, st Store, _ func() Store) {
		must(t, st.SetPushRev("b", 7))
		diff(t, "scalar only", at(7), mustCursor(t)(st.PushCursor("b")))
		must(t, st.WritePushCursor("b", atPath(9, "/p")))
		diff(t, "row", []any{atPath(9, "/p"), int64(9)}, []any{mustCursor(t)(st.PushCursor("b")), mustRev(t)(st.PushRev("b"))})
		must(t, st.SetPushRev("b", 0)) // the pullOnce QUIRK: the row keeps winning
		diff(t, "row wins over a lower scalar", atPath(9, "/p"), mustCursor(t)(st.PushCursor("b")))
		must(t, st.SetPushRev("b", 10))
		diff(t, "scalar ahead of row", at(10), mustCursor(t)(st.PushCursor("b")))
		must(t, st.WritePushCursor("b", at(0)))
		diff(t, "reset both", []any{at(0), int64(0)}, []any{mustCursor(t)(st.PushCursor("b")), mustRev(t)(st.PushRev("b"))})
	}},
	{"durable across reopen", func(t *testing.T, st Store, reopen func() Store) {
		_, err := st.WriteFile("b", "/a", []byte("a"), false)
		must(t, err)
		_, err = st.WriteFile("b", "/d", nil, true)
		must(t, err)
		_, err = st.ApplyUpstream("b", []Change{{Rev: 4, Path: "/up", Content: []byte("u")}})
		must(t, err)
		must(t, st.WriteFetchCursor("b", atPath(4, "")))
		must(t, st.WritePushCursor("b", atPath(2, "/d")))
		must(t, st.SetPushRev("b", 1))
		before := snapshotStore(t, st, "b")
		after := snapshotStore(t, reopen(), "b")
		diff(t, "state across reopen", before, after)
		diff(t, "fetch cursor", atPath(4, ""), after.Fetch)
	}},
	{"concurrent writers", func(t *testing.T, st Store, _ func() Store) {
		const writers, each = 4, 25
		var wg sync.WaitGroup
		revs := make([][]int64, writers)
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range each {
					rev, err := st.WriteFile("b", fmt.Sprintf("/w%d/%d", w, i), []byte("x"), false)
					if err != nil {
						t.Error(err)
						return
					}
					revs[w] = append(revs[w], rev)
				}
			}()
		}
		wg.Wait()
		seen := map[int64]bool{}
		for _, rs := range revs {
			for _, r := range rs {
				seen[r] = true
			}
		}
		diff(t, "distinct revs", writers*each, len(seen))
		diff(t, "current rev", int64(writers*each), mustRev(t)(st.CurrentRev("b")))
	}},
}

// TestStoreContract runs the shared table against every implementation.
func TestStoreContract(t *testing.T) {
	for _, impl := range storeImpls() {
		t.Run(impl.name, func(t *testing.T) {
			for _, tc := range storeContract {
				t.Run(tc.name, func(t *testing.T) {
					st, reopen := impl.open(t)
					tc.run(t, st, reopen)
				})
			}
		})
	}
}

// storeState is everything a Store holds for one backend.
type storeState struct {
	CurrentRev int64
	Files      []File
	Log        []Change
	Fetch      Cursor
	Push       Cursor
	PushRev    int64
}

func snapshotStore(t *testing.T, st Store, backend string) storeState {
	t.Helper()
	var s storeState
	var err error
	s.CurrentRev = mustRev(t)(st.CurrentRev(backend))
	s.Files, err = st.Files(backend)
	must(t, err)
	if s.Files == nil {
		t.Errorf("Files returned nil, want a non-nil slice")
	}
	s.Log, err = st.LocalChanges(backend, at(0), at(s.CurrentRev), 0)
	must(t, err)
	s.Fetch = mustCursor(t)(st.FetchCursor(backend))
	s.Push = mustCursor(t)(st.PushCursor(backend))
	s.PushRev = mustRev(t)(st.PushRev(backend))
	return s
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func mustCursor(t *testing.T) func(Cursor, error) Cursor {
	return func(c Cursor, err error) Cursor {
		t.Helper()
		must(t, err)
		return c
	}
}

func mustRev(t *testing.T) func(int64, error) int64 {
	return func(r int64, err error) int64 {
		t.Helper()
		must(t, err)
		return r
	}
}

// Both implementations agree on a random-free but varied workload, and on
// every LocalChanges window along the way (the memory store reads the log
// through a revision index it compacts as rewrites go stale).
func TestStoresAgree(t *testing.T) {
	var states []storeState
	var windows [][][]Change
	for _, impl := range storeImpls() {
		st, _ := impl.open(t)
		var seen [][]Change
		for i := range 120 {
			if i > 0 {
				for _, w := range []struct {
					after, through Cursor
					limit          int
				}{{at(0), at(int64(i)), 0}, {at(int64(i / 3)), at(int64(i)), 3}, {Cursor{Rev: int64(i / 2), Path: "/f3", HasPath: true}, at(int64(i - 1)), 0}} {
					cs, err := st.LocalChanges("b", w.after, w.through, w.limit)
					must(t, err)
					seen = append(seen, cs)
				}
			}
			p := fmt.Sprintf("/f%d", i%7)
			switch i % 5 {
			case 0, 1, 2:
				_, err := st.WriteFile("b", p, []byte(fmt.Sprint(i)), false)
				must(t, err)
			case 3:
				_, err := st.WriteFile("b", p, nil, true)
				must(t, err)
			case 4:
				_, err := st.ApplyUpstream("b", []Change{{Rev: int64(i), Path: p, Content: []byte("u")}, {Rev: int64(i), Path: p + "x", Deleted: true}})
				must(t, err)
			}
		}
		states = append(states, snapshotStore(t, st, "b"))
		windows = append(windows, seen)
	}
	if d := cmp.Diff(states[0], states[1], cmpopts.EquateEmpty()); d != "" {
		t.Errorf("memory vs sqlite (-memory +sqlite):\n%s", d)
	}
	if d := cmp.Diff(windows[0], windows[1], cmpopts.EquateEmpty()); d != "" {
		t.Errorf("LocalChanges windows, memory vs sqlite (-memory +sqlite):\n%s", d)
	}
}
