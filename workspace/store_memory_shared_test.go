package workspace

import (
	"testing"

	"github.com/google/go-cmp/cmp"
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
