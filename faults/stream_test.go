package faults

import (
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

func TestStreamOrderAndCoalescing(t *testing.T) {
	c := newContainer(Off(), 1)
	h := mustConnect(t, c)
	run(t, h, "write 2")      // rev 2: /out/1-0 /out/1-1
	run(t, h, "put /a")       // rev 3
	run(t, h, "put /out/1-0") // rev 4: rewrites /out/1-0
	run(t, h, "delete /a")    // rev 5: tombstone
	got, env := drain(t, h, scheduler.Baseline, nil)
	want := []scheduler.Cursor{at(2, "/out/1-1"), at(4, "/out/1-0"), at(5, "/a")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	if env.CurrentCursor != scheduler.At(5) {
		t.Errorf("currentCursor = %s, want {5,null}", env.CurrentCursor)
	}
	if env.AppliedPushCursor != scheduler.Baseline {
		t.Errorf("appliedPushCursor = %s, want baseline", env.AppliedPushCursor)
	}
}

func TestStreamThroughAndResumeInsideRev(t *testing.T) {
	c := newContainer(Off(), 1)
	h := mustConnect(t, c)
	run(t, h, "write 3") // rev 2: /out/1-0 /out/1-1 /out/1-2
	run(t, h, "write 1") // rev 3: /out/2-0

	through := scheduler.At(2)
	got, env := drain(t, h, scheduler.Baseline, &through)
	if want := []scheduler.Cursor{at(2, "/out/1-0"), at(2, "/out/1-1"), at(2, "/out/1-2")}; !slices.Equal(got, want) {
		t.Errorf("through {2,null}: got %v, want %v", got, want)
	}
	if env.CurrentCursor != through {
		t.Errorf("currentCursor = %s, want %s", env.CurrentCursor, through)
	}

	// Same-rev resume: strictly after {2,"/out/1-0"} inside rev 2.
	got, _ = drain(t, h, at(2, "/out/1-0"), nil)
	if want := []scheduler.Cursor{at(2, "/out/1-1"), at(2, "/out/1-2"), at(3, "/out/2-0")}; !slices.Equal(got, want) {
		t.Errorf("resume inside rev: got %v, want %v", got, want)
	}
	// A path-bearing through bounds inside a rev.
	through = at(2, "/out/1-1")
	got, env = drain(t, h, scheduler.Baseline, &through)
	if want := []scheduler.Cursor{at(2, "/out/1-0"), at(2, "/out/1-1")}; !slices.Equal(got, want) {
		t.Errorf("through inside rev: got %v, want %v", got, want)
	}
	if env.CurrentCursor != through {
		t.Errorf("currentCursor = %s, want %s", env.CurrentCursor, through)
	}
	// A through beyond the snapshot is capped at {currentRev,null}.
	through = scheduler.At(99)
	if _, env = drain(t, h, scheduler.Baseline, &through); env.CurrentCursor != scheduler.At(3) {
		t.Errorf("currentCursor = %s, want {3,null}", env.CurrentCursor)
	}
	// {r,null} after: rev r is drained.
	if got, _ = drain(t, h, scheduler.At(2), nil); !slices.Equal(got, []scheduler.Cursor{at(3, "/out/2-0")}) {
		t.Errorf("after {2,null}: got %v", got)
	}
}

func TestStreamSnapshotBound(t *testing.T) {
	c := newContainer(Off(), 1)
	h := mustConnect(t, c)
	run(t, h, "put /a") // rev 2
	run(t, h, "put /b") // rev 3
	env, err := h.Sync().FetchChanges(ctx, workspace.FetchRequest{})
	if err != nil {
		t.Fatal(err)
	}
	defer env.Changes.Close()
	// After the snapshot: /a is rewritten (live rev 4 > {3,null}) and /c is
	// new. Neither belongs to this stream.
	run(t, h, "put /a")
	run(t, h, "put /c")
	var got []scheduler.Cursor
	for {
		ch, err := env.Changes.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ch.Cursor())
	}
	if want := []scheduler.Cursor{at(3, "/b")}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// The next pull from the advertised cursor delivers both.
	got, _ = drain(t, h, env.CurrentCursor, nil)
	if want := []scheduler.Cursor{at(4, "/a"), at(5, "/c")}; !slices.Equal(got, want) {
		t.Errorf("next pull: got %v, want %v", got, want)
	}
}

func TestPushSemantics(t *testing.T) {
	c := newContainer(Off(), 1)
	h := mustConnect(t, c)
	sender := scheduler.At(7)
	res, err := h.Sync().Push(ctx, workspace.PushRequest{SenderRev: 7, SenderCursor: &sender, Changes: []workspace.Change{
		{Rev: 6, Path: "/host", Content: []byte("h")},
		{Rev: 7, Path: "/gone", Deleted: true},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if want := (workspace.PushResult{Rev: 3, Applied: 2, AppliedPushCursor: sender}); res != want {
		t.Errorf("push = %+v, want %+v", res, want)
	}
	w, err := h.Sync().Watermarks(ctx, workspace.WatermarksRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if want := (workspace.Watermarks{CurrentRev: 3, FetchCursor: sender}); w != want {
		t.Errorf("watermarks = %+v, want %+v", w, want)
	}
	// Pushed paths are not fetched back; a later container write is.
	if got, _ := drain(t, h, scheduler.Baseline, nil); len(got) != 0 {
		t.Errorf("pushed entries fetched back: %v", got)
	}
	run(t, h, "put /host")
	if got, _ := drain(t, h, scheduler.Baseline, nil); !slices.Equal(got, []scheduler.Cursor{at(4, "/host")}) {
		t.Errorf("got %v", got)
	}
	// A non-peer push (senderRev 0) does not move the appliedPushCursor.
	res, err = h.Sync().Push(ctx, workspace.PushRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if res.AppliedPushCursor != scheduler.Baseline || c.Watermarks().FetchCursor != sender {
		t.Errorf("non-peer push: %+v, watermarks %+v", res, c.Watermarks())
	}
	// An older peer cursor does not move it back.
	if _, err = h.Sync().Push(ctx, workspace.PushRequest{SenderRev: 2}); err != nil {
		t.Fatal(err)
	}
	if c.Watermarks().FetchCursor != sender {
		t.Errorf("appliedPushCursor moved back to %s", c.Watermarks().FetchCursor)
	}
	files := c.Files()
	if len(files) != 1 || files[0].Path != "/host" {
		t.Errorf("files = %+v", files)
	}
}

func TestCommandExitSuffixKeepsWrites(t *testing.T) {
	c := newContainer(Off(), 1)
	h := mustConnect(t, c)
	if got := run(t, h, "write 2; exit 42"); got != 42 {
		t.Fatalf("exit %d, want 42", got)
	}
	if c.writeCount() != 2 {
		t.Fatalf("writes %d, want 2: a failing exit status must not undo the command's writes", c.writeCount())
	}
}

func TestCommands(t *testing.T) {
	c := newContainer(Off(), 1)
	h := mustConnect(t, c)
	for _, tc := range []struct {
		cmd  string
		code int
	}{
		{"true", 0}, {"exit 3", 3}, {"write 0", 0}, {"delete /nope", 1},
		{"rm -rf /", 127}, {"", 127}, {"write x", 2}, {"write 1001", 2},
		{"true; exit 7", 7}, {"delete /nope; exit 7", 1}, {"true; exit 256", 2},
	} {
		if got := run(t, h, tc.cmd); got != tc.code {
			t.Errorf("%q: exit %d, want %d", tc.cmd, got, tc.code)
		}
	}
	if c.writeCount() != 0 || c.Watermarks().CurrentRev != 1 {
		t.Errorf("commands without writes wrote: writes %d, %+v", c.writeCount(), c.Watermarks())
	}
	if n := c.execCount("b1-rt1"); n != 11 {
		t.Errorf("ExecCount = %d, want 11", n)
	}
}
