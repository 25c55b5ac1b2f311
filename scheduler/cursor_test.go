package scheduler_test

import (
	"testing"
	"time"

	"github.com/syncsim/syncsim/scheduler"
)

// SPEC 1.1: within one rev {r,"/a"} < {r,"/b"} < {r,null} < {r+1,"/a"}.
func TestCursorOrder(t *testing.T) {
	ordered := []scheduler.Cursor{
		scheduler.AtPath(0, ""),
		scheduler.Baseline,
		scheduler.AtPath(3, ""),
		scheduler.AtPath(3, "/a"),
		scheduler.AtPath(3, "/b"),
		scheduler.At(3),
		scheduler.AtPath(4, "/a"),
		scheduler.At(4),
	}
	for i, a := range ordered {
		for j, b := range ordered {
			want := 0
			switch {
			case i < j:
				want = -1
			case i > j:
				want = 1
			}
			if got := a.Compare(b); got != want {
				t.Errorf("%s.Compare(%s) = %d, want %d", a, b, got, want)
			}
			if got := a.Less(b); got != (want < 0) {
				t.Errorf("%s.Less(%s) = %v", a, b, got)
			}
		}
	}
	if scheduler.MinCursor(scheduler.At(3), scheduler.AtPath(3, "/z")) != scheduler.AtPath(3, "/z") {
		t.Error("MinCursor")
	}
	if scheduler.MaxCursor(scheduler.At(3), scheduler.AtPath(3, "/z")) != scheduler.At(3) {
		t.Error("MaxCursor")
	}
}

func TestCursorNullDistinctFromEmpty(t *testing.T) {
	null, empty := scheduler.At(0), scheduler.AtPath(0, "")
	if null == empty || null.Compare(empty) == 0 {
		t.Fatal("{0,null} and {0,\"\"} must differ")
	}
	if null.String() != "{0,null}" || empty.String() != `{0,""}` {
		t.Errorf("String: %s %s", null, empty)
	}
}

func TestIntentEqualAndString(t *testing.T) {
	nb := time.Date(2025, 1, 1, 0, 0, 1, 500_000_000, time.UTC)
	base := scheduler.Intent{Backend: "b", Attempt: 2, NotBefore: nb}
	variants := []scheduler.Intent{
		base,
		{Backend: "b", Attempt: 2, NotBefore: nb, RuntimeID: scheduler.Ptr("")},
		{Backend: "b", Attempt: 2, NotBefore: nb, RuntimeID: scheduler.Ptr("r")},
		{Backend: "b", Attempt: 2, NotBefore: nb, TargetCursor: scheduler.Ptr(scheduler.Baseline)},
		{Backend: "b", Attempt: 2, NotBefore: nb, TargetCursor: scheduler.Ptr(scheduler.AtPath(0, ""))},
		{Backend: "b", Attempt: 3, NotBefore: nb},
		{Backend: "c", Attempt: 2, NotBefore: nb},
		{Backend: "b", Attempt: 2, NotBefore: nb.Add(time.Nanosecond)},
	}
	for i, a := range variants {
		for j, b := range variants {
			if got := a.Equal(b); got != (i == j) {
				t.Errorf("%s.Equal(%s) = %v", a, b, got)
			}
		}
	}
	if !base.Equal(scheduler.Intent{Backend: "b", Attempt: 2, NotBefore: nb.In(time.FixedZone("X", 3600))}) {
		t.Error("Equal must compare NotBefore as an instant")
	}
	clone := variants[2].Clone()
	*clone.RuntimeID = "changed"
	if *variants[2].RuntimeID != "r" {
		t.Error("Clone aliases RuntimeID")
	}
	full := scheduler.Intent{Backend: "b", Attempt: 2, NotBefore: nb, RuntimeID: scheduler.Ptr("r"), TargetCursor: scheduler.Ptr(scheduler.AtPath(5, "/a"))}
	for in, want := range map[*scheduler.Intent]string{
		&base: "{backend b attempt 2 notBefore 1735689601500}",
		&full: `{backend b runtime r target {5,"/a"} attempt 2 notBefore 1735689601500}`,
	} {
		if got := in.String(); got != want {
			t.Errorf("String = %s, want %s", got, want)
		}
	}
}

func TestMemoryRecordsCalls(t *testing.T) {
	ctx := t.Context()
	m := scheduler.NewMemory()
	a := scheduler.Intent{Backend: "a", Attempt: 1, RuntimeID: scheduler.Ptr("r")}
	m.Schedule(ctx, a)
	m.Schedule(ctx, scheduler.Intent{Backend: "a", Attempt: 2})
	m.Clear(ctx, "a")
	m.Clear(ctx, "never")
	*a.RuntimeID = "mutated"
	got := m.Scheduled()
	if len(got) != 2 || *got[0].RuntimeID != "r" || got[1].Attempt != 2 {
		t.Errorf("Scheduled = %v", got)
	}
	if c := m.Cleared(); len(c) != 2 || c[0] != "a" || c[1] != "never" {
		t.Errorf("Cleared = %q", c)
	}
}
