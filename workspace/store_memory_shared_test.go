package workspace

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/syncsim/syncsim/scheduler"
)

// TestMemoryFilesShared: FilesShared lists what Files lists, and a listing
// taken stays what it was after the store changes the files it holds (a
// rewrite, an upstream apply, a delete): the store never changes a content
// in place.
func TestMemoryFilesShared(t *testing.T) {
	s := NewMemoryStore()
	for _, p := range []string{"/b", "/a", "/c"} {
		if _, err := s.WriteFile("x", p, []byte("v1 "+p), false); err != nil {
			t.Fatal(err)
		}
	}
	want, _ := s.Files("x")
	got, err := s.FilesShared("x")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("FilesShared differs from Files (-Files +FilesShared):\n%s", d)
	}
	if _, err := s.WriteFile("x", "/a", []byte("v2 /a"), false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ApplyUpstream("x", []Change{{Rev: 9, Path: "/b", Content: []byte("upstream")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.WriteFile("x", "/c", nil, true); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("a listing taken earlier changed with the store (-then +now):\n%s", d)
	}
	if empty, _ := s.FilesShared("none"); empty == nil || len(empty) != 0 {
		t.Fatalf("an empty namespace lists %#v, want an empty non-nil list", empty)
	}
}

// TestMemoryLocalChangesShareStoredContent: LocalChanges hands out the
// stored contents (no copy per read), which a later write of the same path
// never changes in place: a change read before the write keeps its bytes,
// deletes carry no content, and an empty write an empty, non-nil one.
func TestMemoryLocalChangesShareStoredContent(t *testing.T) {
	s := NewMemoryStore()
	in := []byte("first")
	if _, err := s.WriteFile("x", "/a", in, false); err != nil {
		t.Fatal(err)
	}
	in[0] = 'F' // the store copied at the write
	before, _ := s.LocalChanges("x", Cursor{}, scheduler.At(10), 0)
	if _, err := s.WriteFile("x", "/a", []byte("second"), false); err != nil {
		t.Fatal(err)
	}
	s.WriteFile("x", "/d", nil, true)
	s.WriteFile("x", "/e", []byte{}, false)
	after, _ := s.LocalChanges("x", Cursor{}, scheduler.At(10), 0)
	if len(before) != 1 || string(before[0].Content) != "first" {
		t.Fatalf("read before the rewrite: %+v, want /a = first", before)
	}
	again, _ := s.LocalChanges("x", Cursor{}, scheduler.At(10), 0)
	if len(after) != 3 || string(after[0].Content) != "second" || after[1].Content != nil || after[2].Content == nil || len(after[2].Content) != 0 {
		t.Fatalf("after: %+v, want /a = second, /d deleted (nil), /e empty", after)
	}
	if &again[0].Content[0] != &after[0].Content[0] {
		t.Error("two reads of one change copied its content")
	}
}
