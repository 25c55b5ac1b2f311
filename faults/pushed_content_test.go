package faults

import (
	"testing"

	"github.com/syncsim/syncsim/workspace"
)

// TestPushKeepsItsOwnCopy: the remote holds its own copy of what a push
// sent (the sender may change its buffer afterwards), and a push that
// sends a path's current content again keeps the copy it has instead of
// making another; different content gets a fresh copy.
func TestPushKeepsItsOwnCopy(t *testing.T) {
	c := newContainer(Profile{}, 1)
	h := mustConnect(t, c)
	push := func(rev int64, content []byte) {
		t.Helper()
		if _, err := h.Sync().Push(ctx, workspace.PushRequest{SenderRev: rev, Changes: []workspace.Change{{Rev: rev, Path: "/h", Content: content}}}); err != nil {
			t.Fatal(err)
		}
	}
	file := func() []byte {
		for _, f := range c.Files() {
			if f.Path == "/h" {
				return f.Content
			}
		}
		t.Fatal("/h missing")
		return nil
	}
	sent := []byte("content")
	push(1, sent)
	first := file()
	sent[0] = 'C'
	if string(file()) != "content" {
		t.Fatalf("the remote follows the sender's buffer: %q", file())
	}
	push(2, []byte("content"))
	if again := file(); &again[0] != &first[0] {
		t.Error("the same content pushed again was copied again")
	}
	push(3, []byte("other"))
	if got := file(); string(got) != "other" || &got[0] == &first[0] {
		t.Errorf("new content: %q, shares the old copy: %t", got, &got[0] == &first[0])
	}
}
