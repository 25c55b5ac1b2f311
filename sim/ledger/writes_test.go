package ledger

import (
	"slices"
	"strconv"
	"testing"
)

// TestAckedWritesDue: a listing is due after a host start, once the
// acknowledgements since the last one are an eighth of all, and after
// Force when anything was acknowledged since; never twice for the same
// acknowledgements.
func TestAckedWritesDue(t *testing.T) {
	var a Writes
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

// A rewrite of an acknowledged path takes the new version (same size:
// same length, other bytes) and moves the path to the end of the
// acknowledgement order, once.
func TestAckedWritesRewrite(t *testing.T) {
	var a Writes
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
}
