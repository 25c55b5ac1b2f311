package oracle

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/sim/ledger"
	"github.com/syncsim/syncsim/workspace"
)

// FileIndex answers like a map whatever the order of the listing and of the
// lookups: forward, backward, repeated, absent paths.
func TestFileIndexAnswersLikeAMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		var files []workspace.File
		want := map[string][]byte{}
		for i := range r.IntN(40) {
			p := "/p/" + strconv.Itoa(r.IntN(60))
			if _, dup := want[p]; dup {
				continue
			}
			c := []byte(strconv.Itoa(i))
			files = append(files, workspace.File{Path: p, Content: c})
			want[p] = c
		}
		if round%2 == 0 { // the store's promise; odd rounds break it
			slices.SortFunc(files, func(a, b workspace.File) int { return strings.Compare(a.Path, b.Path) })
		}
		x := IndexFiles(files)
		queries := make([]string, 0, 80)
		for range 80 {
			queries = append(queries, "/p/"+strconv.Itoa(r.IntN(70)))
		}
		if round%4 < 2 {
			slices.Sort(queries) // the checks' usual order
		}
		for _, q := range queries {
			got, ok := x.Get(q)
			w, wok := want[q]
			if ok != wok || string(got) != string(w) {
				t.Fatalf("round %d: Get(%s) = %q, %t; want %q, %t", round, q, got, ok, w, wok)
			}
		}
	}
}

// TestAckedWritesCheck: a listing that lacks an acknowledged write, holds
// other content at its path, or still holds an acknowledged delete breaks
// host-write; the right listing does not. Latest follows writes and
// deletes.
func TestAckedWritesCheck(t *testing.T) {
	var a ledger.Writes
	a.Add(1, "/h/a")
	a.Add(1, "/h/b")
	a.Add(1, "/h/c")
	a.Remove(1, "/h/c")
	if latest, ok := a.Latest(1); !ok || latest != "/h/b" {
		t.Errorf("Latest = %q, %t; want /h/b (the delete took /h/c)", latest, ok)
	}
	if _, ok := a.Latest(0); ok || a.Tracks(0) || !a.Tracks(1) || a.Backends() != 2 {
		t.Errorf("backend 0 has nothing acknowledged: Latest %t, Tracks(0) %t, Tracks(1) %t, Backends %d", ok, a.Tracks(0), a.Tracks(1), a.Backends())
	}
	file := func(p, content string) workspace.File { return workspace.File{Path: p, Content: []byte(content)} }
	good := []workspace.File{file("/h/a", ledger.HostContent("/h/a")), file("/h/b", ledger.HostContent("/h/b")), file("/x", "remote")}
	if d, bad := checkHostWrites(&a, 1, "b1", good); bad {
		t.Fatalf("a listing with every write: %s", d)
	}
	for _, tc := range []struct {
		name  string
		files []workspace.File
		want  string
	}{
		{"lost", good[1:], "backend b1: host write /h/a: expected in the local store (acknowledged), got none"},
		{"changed", []workspace.File{file("/h/a", "other"), good[1]}, `host write /h/a: expected "host /h/a" (acknowledged), got "other"`},
		{"undeleted", append(slices.Clone(good), file("/h/c", "x")), "host delete of /h/c was acknowledged, the local store still holds it"},
	} {
		if d, bad := checkHostWrites(&a, 1, "b1", tc.files); !bad || !strings.Contains(d, tc.want) {
			t.Errorf("%s: got %t %q, want %q", tc.name, bad, d, tc.want)
		}
	}
}

// After a rewrite of an acknowledged path, host-write holds the store to
// the new version's content (same length, other bytes), not the first.
func TestHostWriteCheckAfterRewrite(t *testing.T) {
	var a ledger.Writes
	a.AddSized(0, "/host/1", 40)
	a.Add(0, "/host/2")
	a.AddVersion(0, "/host/1", 40, 1)
	old := ledger.HostContentSized("/host/1", 40)
	cur := ledger.HostContentSized(ledger.ContentKey("/host/1", 1), 40)
	listing := func(c string) []workspace.File {
		return []workspace.File{{Path: "/host/1", Content: []byte(c)}, {Path: "/host/2", Content: []byte(ledger.HostContent("/host/2"))}}
	}
	if msg, bad := checkHostWrites(&a, 0, "b0", listing(old)); !bad || !strings.Contains(msg, "/host/1") {
		t.Fatalf("the first version passed after a rewrite: %q", msg)
	}
	if msg, bad := checkHostWrites(&a, 0, "b0", listing(cur)); bad {
		t.Fatalf("the rewritten content failed: %s", msg)
	}
	a.AddVersion(0, "/host/1", 0, 0) // written again as a first content
	if msg, bad := checkHostWrites(&a, 0, "b0", listing(ledger.HostContent("/host/1"))); bad {
		t.Fatalf("version 0 again: %s", msg)
	}
}
