package oracle

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

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
	var a AckedWrites
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
	good := []workspace.File{file("/h/a", HostContent("/h/a")), file("/h/b", HostContent("/h/b")), file("/x", "remote")}
	if d, bad := a.Check(1, "b1", good); bad {
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
		if d, bad := a.Check(1, "b1", tc.files); !bad || !strings.Contains(d, tc.want) {
			t.Errorf("%s: got %t %q, want %q", tc.name, bad, d, tc.want)
		}
	}
}

// TestAckedWritesDue: a listing is due after a host start, once the
// acknowledgements since the last one are an eighth of all, and after
// Force when anything was acknowledged since; never twice for the same
// acknowledgements.
func TestAckedWritesDue(t *testing.T) {
	var a AckedWrites
	if !a.Due(1) {
		t.Fatal("not due after the first host start")
	}
	if a.Due(1) {
		t.Fatal("due twice with nothing acknowledged")
	}
	a.Add(0, "/h/0")
	if !a.Due(1) || a.Due(1) {
		t.Fatal("one acknowledgement of one: due exactly once")
	}
	for i := 1; i < ackedListEvery; i++ {
		a.Add(0, "/h/"+strconv.Itoa(i))
		if !a.Due(1) {
			t.Fatalf("write %d: not due with 1 of %d new (at least 1/%d)", i+1, i+1, ackedListEvery)
		}
	}
	// 8 acknowledged: one more is 1 of 9, under an eighth; a second makes
	// it 2 of 10.
	a.Add(0, "/h/8")
	if a.Due(1) {
		t.Fatal("due with 1 of 9 new")
	}
	a.Add(0, "/h/9")
	if !a.Due(1) {
		t.Fatal("not due with 2 of 10 new")
	}
	a.Add(0, "/h/10")
	a.Force()
	if !a.Due(1) {
		t.Fatal("Force with a fresh acknowledgement: not due")
	}
	a.Force()
	if a.Due(1) {
		t.Fatal("Force with nothing fresh: due")
	}
	if !a.Due(2) {
		t.Fatal("a host restart: not due")
	}
}

// TestHostContentSizedPattern pins the padded content against its plain
// definition (the text, then the filler repeated and cut to size) and
// holds IsHostContent to it: every size around the filler's period and
// the comparison block's edge matches, and any one byte changed, one byte
// more or one less does not.
func TestHostContentSizedPattern(t *testing.T) {
	const path = "/h/big.0"
	plain := func(size int) string {
		s := "host " + path
		for len(s) < size {
			s += hostFiller
		}
		if size > len("host "+path) {
			s = s[:size]
		}
		return s
	}
	b := len(hostFillerBlock)
	for _, size := range []int{-1, 0, 1, len("host " + path), len("host "+path) + 1, 100, b - 1, b, b + 1, b + 13, 2*b + len("host "+path), 3*b + 7} {
		want := plain(size)
		if got := HostContentSized(path, size); got != want {
			t.Fatalf("size %d: HostContentSized is %d bytes, differs from the plain padding (%d bytes)", size, len(got), len(want))
		}
		if !IsHostContent([]byte(want), path, size) {
			t.Fatalf("size %d: IsHostContent rejects the content", size)
		}
		if IsHostContent([]byte(want+"x"), path, size) || IsHostContent([]byte(want[:len(want)-1]), path, size) {
			t.Fatalf("size %d: IsHostContent accepts a byte more or less", size)
		}
		if IsHostContent([]byte(want), path+"x", size) {
			t.Fatalf("size %d: IsHostContent accepts another path's content", size)
		}
		for _, at := range []int{0, 4, 5, len(want) / 2, len(want) - 1} {
			bad := []byte(want)
			bad[at] ^= 1
			if IsHostContent(bad, path, size) {
				t.Fatalf("size %d: IsHostContent accepts a change at byte %d", size, at)
			}
		}
	}
}

// A rewrite of an acknowledged path holds the store to the new version's
// content, at the same size too (same length, other bytes), and moves the
// path to the end of the acknowledgement order, once.
func TestAckedWritesRewrite(t *testing.T) {
	var a AckedWrites
	a.AddSized(0, "/host/1", 40)
	a.Add(0, "/host/2")
	a.AddVersion(0, "/host/1", 40, 1)
	if got := a.Acked(0); !slices.Equal(got, []string{"/host/2", "/host/1"}) {
		t.Fatalf("order %v, want [/host/2 /host/1]", got)
	}
	if a.VersionOf(0, "/host/1") != 1 || a.SizeOf(0, "/host/1") != 40 {
		t.Fatalf("version %d size %d, want 1 and 40", a.VersionOf(0, "/host/1"), a.SizeOf(0, "/host/1"))
	}
	old := HostContentSized("/host/1", 40)
	cur := HostContentSized(ContentKey("/host/1", 1), 40)
	if len(old) != len(cur) || old == cur {
		t.Fatalf("same-size rewrite: %q and %q must have one length and differ", old, cur)
	}
	listing := func(c string) []workspace.File {
		return []workspace.File{{Path: "/host/1", Content: []byte(c)}, {Path: "/host/2", Content: []byte(HostContent("/host/2"))}}
	}
	if msg, bad := a.Check(0, "b0", listing(old)); !bad || !strings.Contains(msg, "/host/1") {
		t.Fatalf("the first version passed after a rewrite: %q", msg)
	}
	if msg, bad := a.Check(0, "b0", listing(cur)); bad {
		t.Fatalf("the rewritten content failed: %s", msg)
	}
	a.AddVersion(0, "/host/1", 0, 0) // written again as a first content
	if msg, bad := a.Check(0, "b0", listing(HostContent("/host/1"))); bad {
		t.Fatalf("version 0 again: %s", msg)
	}
}
