package model

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/syncsim/syncsim/scheduler"
)

func TestLocalStoreApplyCounts(t *testing.T) {
	m := NewLocalStore()
	if rev := m.WriteFile("b", "/a", []byte("x"), false); rev != 1 {
		t.Fatalf("first host write: expected rev 1, got %d", rev)
	}
	// SPEC 6.7: a delete always counts, even of a path not held; a write
	// counts unless the path already holds that content.
	got := m.ApplyUpstream("b", []LocalChange{
		{Rev: 7, Path: "/a", Content: []byte("x")}, // already applied
		{Rev: 8, Path: "/b", Content: []byte("y")}, // new
		{Rev: 9, Path: "/gone", Deleted: true},     // missing: counts
		{Rev: 9, Path: "/b", Content: []byte("y")}, // now already applied
	})
	if got != 2 {
		t.Fatalf("expected 2 applied (/b once, the delete), got %d", got)
	}
	if d := cmp.Diff([]LocalFile{{Path: "/a", Content: []byte("x"), Rev: 1}, {Path: "/b", Content: []byte("y"), Rev: 8}}, m.Files("b")); d != "" {
		t.Fatalf("files (-want +got):\n%s", d)
	}
	// The alreadyApplied write left /a's local change pending.
	if d := cmp.Diff([]LocalChange{{Rev: 1, Path: "/a", Content: []byte("x")}}, m.LocalChanges("b", scheduler.Baseline, scheduler.At(1), 0)); d != "" {
		t.Fatalf("pending (-want +got):\n%s", d)
	}
	// An upstream write that changes /a supersedes it.
	m.ApplyUpstream("b", []LocalChange{{Rev: 10, Path: "/a", Content: []byte("z")}})
	if got := m.LocalChanges("b", scheduler.Baseline, scheduler.At(1), 0); len(got) != 0 {
		t.Fatalf("superseded change still pending: %v", got)
	}
	if m.CurrentRev("b") != 1 {
		t.Fatalf("an upstream apply stamped a local revision: %d", m.CurrentRev("b"))
	}
}

func TestLocalStoreChangesWindow(t *testing.T) {
	m := NewLocalStore()
	for i := range 100 { // rewrites of five paths: the index compacts
		m.WriteFile("b", string(rune('a'+i%5)), []byte{byte(i)}, i%7 == 0)
	}
	all := m.LocalChanges("b", scheduler.Baseline, scheduler.At(100), 0)
	var revs []int64
	for _, c := range all {
		revs = append(revs, c.Rev)
	}
	if d := cmp.Diff([]int64{96, 97, 98, 99, 100}, revs); d != "" {
		t.Fatalf("pending revs (-want +got):\n%s", d)
	}
	if got := m.LocalChanges("b", scheduler.AtPath(97, "c"), scheduler.AtPath(99, "e"), 0); len(got) != 2 || got[0].Rev != 98 || got[1].Rev != 99 {
		t.Fatalf("window (97,c]..(99,e]: expected revs 98 and 99, got %v", got)
	}
	if got := m.LocalChanges("b", scheduler.Baseline, scheduler.At(100), 2); len(got) != 2 || got[1].Rev != 97 {
		t.Fatalf("limit 2: expected revs 96 and 97, got %v", got)
	}
	if c := all[3]; !c.Deleted || c.Content != nil { // rev 99 is write 98, a delete
		t.Fatalf("rev 99: expected a delete with no content, got %+v", c)
	}
	if c := all[4]; c.Deleted || string(c.Content) != string([]byte{99}) {
		t.Fatalf("rev 100: expected a write of {99}, got %+v", c)
	}
}

// TestLocalStoreEachChangeStops: EachLocalChange yields LocalChanges's list
// in order and stops where its callback says, after any number of
// compactions and upstream supersessions.
func TestLocalStoreEachChangeStops(t *testing.T) {
	m := NewLocalStore()
	for i := range 300 {
		m.WriteFile("b", string(rune('a'+i%40)), []byte{byte(i)}, false)
		if i%9 == 0 {
			m.ApplyUpstream("b", []LocalChange{{Rev: int64(1000 + i), Path: string(rune('a' + i%40)), Content: []byte("up")}})
		}
	}
	want := m.LocalChanges("b", scheduler.Baseline, scheduler.At(300), 0)
	var got []LocalChange
	m.EachLocalChange("b", scheduler.Baseline, scheduler.At(300), func(c LocalChange) bool {
		got = append(got, c)
		return len(got) < 3
	})
	if len(want) < 4 {
		t.Fatalf("expected more than three pending changes, got %d", len(want))
	}
	if d := cmp.Diff(want[:3], got); d != "" {
		t.Fatalf("first three changes (-want +got):\n%s", d)
	}
}

func TestLocalStoreCursorRules(t *testing.T) {
	m := NewLocalStore()
	m.WriteFetchCursor("b", scheduler.AtPath(0, "/p"))
	if got := m.FetchCursor("b"); got != scheduler.Baseline {
		t.Fatalf("stored rev 0 with a path: expected the baseline, got %s", got)
	}
	if !m.WriteFetchCursorIfAhead("b", scheduler.AtPath(3, "/p")) || m.WriteFetchCursorIfAhead("b", scheduler.AtPath(3, "/a")) {
		t.Fatal("if-ahead: expected a write of {3,/p} and none of {3,/a}")
	}
	if !m.WriteFetchCursorIfAhead("b", scheduler.At(3)) { // {3,null} is after every {3,path}
		t.Fatal("if-ahead: {3,null} must be ahead of {3,/p}")
	}
	m.WritePushCursor("b", scheduler.AtPath(5, "/x"))
	if got := m.PushCursor("b"); got != scheduler.AtPath(5, "/x") {
		t.Fatalf("push cursor at an equal scalar: expected the row, got %s", got)
	}
	m.SetPushRev("b", 6)
	if got := m.PushCursor("b"); got != scheduler.At(6) {
		t.Fatalf("scalar ahead of the row: expected {6,null}, got %s", got)
	}
}

// TestSharingLocalStoreKeepsCallersContent: the sharing model keeps the
// slice it was handed (a later change to it shows), the plain one a copy
// (it does not), and both store an empty write as empty, not nil.
func TestSharingLocalStoreKeepsCallersContent(t *testing.T) {
	for _, tc := range []struct {
		name   string
		m      *LocalStore
		shared bool
	}{{"plain", NewLocalStore(), false}, {"sharing", NewSharingLocalStore(), true}} {
		w, u := []byte("written"), []byte("applied")
		tc.m.WriteFile("b", "/w", w, false)
		tc.m.ApplyUpstream("b", []LocalChange{{Rev: 1, Path: "/u", Content: u}})
		tc.m.WriteFile("b", "/e", nil, false)
		w[0], u[0] = 'W', 'A'
		got := map[string]string{}
		for _, f := range tc.m.Files("b") {
			if f.Content == nil {
				t.Errorf("%s: %s stored as nil", tc.name, f.Path)
			}
			got[f.Path] = string(f.Content)
		}
		wantW, wantU := "written", "applied"
		if tc.shared {
			wantW, wantU = "Written", "Applied"
		}
		if got["/w"] != wantW || got["/u"] != wantU || got["/e"] != "" {
			t.Errorf("%s: files %q, want /w %q, /u %q, /e empty", tc.name, got, wantW, wantU)
		}
	}
}
