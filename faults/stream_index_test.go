package faults

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// nextBrute is the fetch index's reference: the smallest fetchable state
// in (after, through] found by walking every file.
func (c *Container) nextBrute(after, through scheduler.Cursor) (workspace.Change, bool, int) {
	var best scheduler.Cursor
	var ch workspace.Change
	ok, n := false, 0
	for p, f := range c.files {
		cur := scheduler.AtPath(f.rev, p)
		if f.pushed || !after.Less(cur) || through.Less(cur) {
			continue
		}
		n++
		if !ok || cur.Less(best) {
			best, ok = cur, true
			ch = workspace.Change{Rev: f.rev, Path: p, Deleted: f.deleted}
		}
	}
	return ch, ok, n
}

// TestFetchIndexMatchesWalk writes, pushes, deletes and wipes at random and
// checks every lookup against a walk of all files.
func TestFetchIndexMatchesWalk(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	c := NewContainer("b0", nil, rand.New(rand.NewPCG(1, 1)), nil)
	c.mu.Lock()
	defer c.mu.Unlock()
	path := func() string { return "/p/" + strconv.Itoa(r.IntN(40)) }
	cur := func() scheduler.Cursor {
		rev := r.Int64N(c.currentRev + 2)
		if r.IntN(2) == 0 {
			return scheduler.At(rev)
		}
		return scheduler.AtPath(rev, path())
	}
	for step := range 20000 {
		switch k := r.IntN(20); {
		case k == 0:
			c.wipeLocked()
		case k < 8:
			c.writeLocked(path(), "x", r.IntN(5) == 0)
		case k < 11:
			c.currentRev++
			c.setFileLocked(path(), &remoteFile{rev: c.currentRev, pushed: true})
		default:
			c.currentRev++
			for range 1 + r.IntN(12) {
				c.stampLocked(path(), []byte("y"), false)
			}
		}
		after, through := cur(), cur()
		got, gotOK := c.nextLocked(after, through)
		want, wantOK, n := c.nextBrute(after, through)
		got.Content = nil
		if gotOK != wantOK || got.Rev != want.Rev || got.Path != want.Path || got.Deleted != want.Deleted {
			t.Fatalf("step %d: next(%s, %s) = %+v %t, walk says %+v %t", step, after, through, got, gotOK, want, wantOK)
		}
		if m := c.countLocked(after, through); m != n {
			t.Fatalf("step %d: count(%s, %s) = %d, walk says %d", step, after, through, m, n)
		}
	}
}

// TestCallLogSince checks the chunked record, copied and viewed, against a
// plain slice at every mark, across chunk boundaries.
func TestCallLogSince(t *testing.T) {
	var l callLog
	var plain []Call
	for n := range 5000 {
		c := Call{Seq: n + 1}
		l.add(c)
		plain = append(plain, c)
		if n%97 != 0 && n < 4990 {
			continue
		}
		for _, mark := range []int{-1, 0, 1, 15, 16, 17, 47, 48, 1000, n - 1, n, n + 1, n + 5} {
			m := min(max(mark, 0), len(plain))
			for name, got := range map[string][]Call{"appendSince": l.appendSince(nil, mark), "view": l.view(mark)} {
				if len(got) != len(plain)-m || (len(got) > 0 && (got[0] != plain[m] || got[len(got)-1] != plain[len(plain)-1])) {
					t.Fatalf("%s: n=%d mark=%d: %d calls, want %d", name, n, mark, len(got), len(plain)-m)
				}
				if cap(got) != len(got) && name == "view" {
					t.Fatalf("view: n=%d mark=%d: capacity %d past its length %d: an append would write into the record", n, mark, cap(got), len(got))
				}
			}
		}
	}
}

// TestCallLogRelease: release clears every chunk before pooling it (a
// pooled chunk must hold nothing of a finished run), a log built after it
// reads only its own calls, and a released log refuses further use.
func TestCallLogRelease(t *testing.T) {
	var a callLog
	for n := range 3000 {
		a.add(Call{Seq: n + 1, Actor: "first"})
	}
	chunks := slices.Clone(a.chunks)
	a.release()
	for i, ch := range chunks {
		if j := slices.IndexFunc(ch, func(c Call) bool { return c != Call{} }); j >= 0 {
			t.Fatalf("chunk %d went back to the pool holding %+v at %d", i, ch[j], j)
		}
	}
	for name, use := range map[string]func(){
		"add": func() { a.add(Call{}) }, "view": func() { a.view(0) }, "appendSince": func() { a.appendSince(nil, 0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s after release did not panic", name)
				}
			}()
			use()
		}()
	}
	var b callLog
	for n := range 2000 {
		b.add(Call{Seq: n + 1, Actor: "second"})
	}
	got := b.appendSince(nil, 0)
	if len(got) != 2000 {
		t.Fatalf("second log holds %d calls, want 2000", len(got))
	}
	for i, c := range got {
		if c.Actor != "second" || c.Seq != i+1 {
			t.Fatalf("call %d of the second log is %+v", i, c)
		}
	}
}

// TestEntryCursorAfter checks the k-th fetchable entry past a cursor (what
// a host-written target "+k" names) against the walk: k steps of the
// smallest fetchable state past the last, or {currentRev, null} when the
// log holds fewer; from the baseline it is EntryCursor.
func TestEntryCursorAfter(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	c := NewContainer("b0", nil, rand.New(rand.NewPCG(1, 1)), nil)
	path := func() string { return "/p/" + strconv.Itoa(r.IntN(12)) }
	for step := range 3000 {
		c.mu.Lock()
		switch k := r.IntN(10); {
		case k < 5:
			c.writeLocked(path(), "x", r.IntN(5) == 0)
		case k < 6:
			c.currentRev++
			c.setFileLocked(path(), &remoteFile{rev: c.currentRev, pushed: true})
		default:
			c.currentRev++
			for range 1 + r.IntN(4) {
				c.stampLocked(path(), []byte("y"), false)
			}
		}
		after := scheduler.At(r.Int64N(c.currentRev + 1))
		if r.IntN(2) == 0 {
			after = scheduler.AtPath(after.Rev, path())
		}
		k := 1 + r.IntN(6)
		want, from := scheduler.At(c.currentRev), after
		for i := 0; i < k; i++ {
			ch, ok, _ := c.nextBrute(from, scheduler.At(c.currentRev))
			if !ok {
				break
			}
			from = scheduler.AtPath(ch.Rev, ch.Path)
			if i == k-1 {
				want = from
			}
		}
		c.mu.Unlock()
		if got := c.EntryCursorAfter(after, k); got != want {
			t.Fatalf("step %d: EntryCursorAfter(%s, %d) = %s, the walk says %s", step, after, k, got, want)
		}
		if got, base := c.EntryCursor(k), c.EntryCursorAfter(scheduler.Baseline, k); got != base {
			t.Fatalf("step %d: EntryCursor(%d) = %s, EntryCursorAfter from the baseline %s", step, k, got, base)
		}
	}
}
