package scenarios

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// A run's new store file is the template, byte for byte, and the store
// opens it as its own: intents and files written to it come back after a
// close and a reopen (a host restart), which must not seed the file again.
func TestSQLiteStoresOpenFromTheTemplate(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()

	intents := filepath.Join(dir, "intents.db")
	s, err := openIntentStore(intents)
	if err != nil {
		t.Fatal(err)
	}
	if img := intentStoreTemplate.image(); img == nil {
		t.Fatal("no intent store template was made")
	} else if got, err := os.ReadFile(intents); err != nil || !bytes.Equal(got, img) {
		t.Fatalf("the new intent store holds %d bytes, not the template's %d (%v)", len(got), len(img), err)
	}
	in := scheduler.Intent{Backend: "b", Attempt: 2, NotBefore: time.Unix(7, 0).UTC()}
	if err := s.Schedule(ctx, in); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = openIntentStore(intents)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got, ok, err := s.Get(ctx, "b"); err != nil || !ok || got.Attempt != 2 {
		t.Fatalf("after a reopen Get = %+v, %t, %v; want attempt 2", got, ok, err)
	}

	local := filepath.Join(dir, "local.db")
	ls, err := openLocalStore(local)
	if err != nil {
		t.Fatal(err)
	}
	if img := localStoreTemplate.image(); img == nil {
		t.Fatal("no local store template was made")
	}
	if _, err := ls.WriteFile("b", "f", []byte("x"), false); err != nil {
		t.Fatal(err)
	}
	if err := ls.Close(); err != nil {
		t.Fatal(err)
	}
	ls, err = openLocalStore(local)
	if err != nil {
		t.Fatal(err)
	}
	defer ls.Close()
	files, err := ls.Files("b")
	if err != nil || len(files) != 1 || string(files[0].Content) != "x" {
		t.Fatalf("after a reopen Files = %+v, %v; want f = x", files, err)
	}
}

// The template is written only where there is nothing: a file, a WAL or a
// journal at the path is left to the store (SQLite would replay a WAL into
// the template's file).
func TestSQLiteTemplateLeavesWhatIsThere(t *testing.T) {
	for _, beside := range []string{"", "-wal", "-journal"} {
		dir := t.TempDir()
		path := filepath.Join(dir, "intents.db")
		if err := os.WriteFile(path+beside, []byte("not ours"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := intentStoreTemplate.seed(path); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		switch {
		case beside == "" && string(got) != "not ours":
			t.Errorf("an existing file became %d bytes (%v)", len(got), err)
		case beside != "" && !os.IsNotExist(err):
			t.Errorf("with a %s beside it, the file was seeded (%d bytes, %v)", beside, len(got), err)
		}
	}
}

// Two images of one store are the same bytes: what a run's stores start
// from does not depend on which process made the template.
func TestSQLiteTemplateIsTheSameEveryTime(t *testing.T) {
	img, err := makeImage(func(p string) (io.Closer, error) { return workspace.OpenSQLiteStore(p) })
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(img, localStoreTemplate.image()) {
		t.Errorf("two images of a new local store differ (%d and %d bytes)", len(img), len(localStoreTemplate.image()))
	}
}
