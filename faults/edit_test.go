package faults

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// TestWriteEdits: `write ... rewrite= delete= twins` makes its new files,
// rewrites and deletes live container-side files, and writes the twin
// paths, all in one new rev; it never touches a file the host pushed, and
// edits fewer files when fewer exist.
func TestWriteEdits(t *testing.T) {
	c := newContainer(Off(), 1)
	h := mustConnect(t, c)
	if _, err := h.Sync().Push(ctx, workspace.PushRequest{SenderRev: 1, Changes: []workspace.Change{{Rev: 1, Path: "/host/1", Content: []byte("host")}}}); err != nil {
		t.Fatalf("push: %v", err)
	}
	if code := run(t, h, "write 3"); code != 0 {
		t.Fatalf("write 3: exit %d", code)
	}
	before := c.Watermarks().CurrentRev
	old := map[string]string{}
	for _, f := range c.Files() {
		old[f.Path] = string(f.Content)
	}
	if code := run(t, h, "write 1 rewrite=2 delete=1 twins"); code != 0 {
		t.Fatalf("write with edits: exit %d", code)
	}
	rev := c.Watermarks().CurrentRev
	if rev != before+1 {
		t.Fatalf("current rev %d after the edit, want %d: one command is one mutation", rev, before+1)
	}
	rewritten, fresh := 0, 0
	for _, f := range c.Files() {
		prev, existed := old[f.Path]
		switch {
		case f.Path == "/host/1":
			if string(f.Content) != "host" {
				t.Errorf("the host's pushed /host/1 was edited: %q", f.Content)
			}
		case !existed:
			fresh++
			if f.Rev != rev {
				t.Errorf("new %s at rev %d, want %d", f.Path, f.Rev, rev)
			}
		case string(f.Content) != prev:
			rewritten++
			if f.Rev != rev || !strings.Contains(string(f.Content), "rewrite "+f.Path) {
				t.Errorf("rewritten %s = %q at rev %d, want new content at rev %d", f.Path, f.Content, f.Rev, rev)
			}
		}
	}
	if fresh != 1+len(twinNames) || rewritten != 2 {
		t.Errorf("%d new files and %d rewritten, want %d and 2", fresh, rewritten, 1+len(twinNames))
	}
	tomb := c.Tombstones()
	if len(tomb) != 1 || tomb[0].Rev != rev {
		t.Fatalf("tombstones %v, want one at rev %d", tomb, rev)
	}
	if _, ok := old[tomb[0].Path]; !ok || strings.HasPrefix(tomb[0].Path, "/host/") {
		t.Errorf("deleted %s, want one of the command's earlier files", tomb[0].Path)
	}
	var twins []string
	for _, f := range c.Files() {
		if strings.HasPrefix(f.Path, "/out/2-") && !strings.HasPrefix(f.Path, "/out/2-0") {
			twins = append(twins, f.Path)
		}
	}
	if strings.Join(twins, " ") != "/out/2-Case /out/2-case /out/2-ü" {
		t.Errorf("twin paths %q", twins)
	}

	// The stream serves the delete as a delete, in the same rev.
	env, err := h.Sync().FetchChanges(ctx, workspace.FetchRequest{After: scheduler.At(before)})
	if err != nil {
		t.Fatalf("fetch: %v", err)
	}
	deletes := 0
	for {
		ch, err := env.Changes.Next(ctx)
		if err != nil {
			break
		}
		if ch.Rev != rev {
			t.Errorf("entry %s at rev %d, want %d", ch.Path, ch.Rev, rev)
		}
		if ch.Deleted {
			deletes++
		}
	}
	env.Changes.Close()
	if deletes != 1 {
		t.Errorf("%d delete entries served, want 1", deletes)
	}
	var sawDeleted bool
	for _, call := range c.AppendRecordSince(nil, 0) {
		if call.Op == OpStreamNext && call.EntryDeleted {
			sawDeleted = strings.Contains(call.String(), " deleted")
		}
	}
	if !sawDeleted {
		t.Error("the record does not mark the delete entry it served as deleted")
	}
}

// TestWriteEditsFewerThanAsked: with no file to edit the command edits
// none, and exits 0; a bad option exits 2 naming it.
func TestWriteEditsFewerThanAsked(t *testing.T) {
	c := newContainer(Off(), 1)
	h := mustConnect(t, c)
	before := c.Watermarks().CurrentRev
	if code := run(t, h, "write 0 rewrite=5 delete=5"); code != 0 {
		t.Fatalf("exit %d, want 0", code)
	}
	if got := c.Watermarks().CurrentRev; got != before {
		t.Errorf("current rev %d, want %d: nothing was there to edit", got, before)
	}
	if code := run(t, h, "write 2 delete=9"); code != 0 {
		t.Fatalf("exit %d, want 0", code)
	}
	if code := run(t, h, "write 0 delete=9"); code != 0 {
		t.Fatalf("exit %d, want 0", code)
	}
	if n := len(c.Files()); n != 0 {
		t.Errorf("%d files left, want 0: delete=9 of 2 deletes both", n)
	}
	for _, bad := range []string{"write 1 rewrite=x", "write 1 delete=-1", "write 1 rewrite=65", "write 1 edit=1", "write 1 5 6"} {
		if code := run(t, h, bad); code != 2 {
			t.Errorf("%q: exit %d, want 2", bad, code)
		}
	}
}
