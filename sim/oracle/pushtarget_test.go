package oracle

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
)

// TestPushTargetRule feeds the watch push entries and record entries
// directly: the pushes of one run of an actor's pushes are bounded by the
// store's revision at the first one's entry; a failed call or another call
// starts a new run; a push never seen at its entry is not judged.
func TestPushTargetRule(t *testing.T) {
	const actor = "#7.exec.b0"
	push := func(seq int, sender scheduler.Cursor, err string) faults.Call {
		return faults.Call{Seq: seq, Actor: actor, Op: faults.OpPush, Sender: sender, Err: err}
	}
	other := func(seq int, op faults.Op) faults.Call { return faults.Call{Seq: seq, Actor: actor, Op: op} }
	type step struct {
		entered int64 // -1: this call was not seen at its blocking point
		call    faults.Call
		fires   bool
	}
	for _, tc := range []struct {
		name  string
		steps []step
		moved int
	}{
		{"a run stops at its first target while writes land", []step{
			{2, push(1, scheduler.AtPath(1, "/a"), ""), false},
			{3, push(2, scheduler.AtPath(2, "/b"), ""), false},
			{4, push(3, scheduler.At(2), ""), false},
		}, 2},
		{"a later batch past the first target", []step{
			{2, push(1, scheduler.AtPath(1, "/a"), ""), false},
			{3, push(2, scheduler.AtPath(2, "/b"), ""), false},
			{3, push(3, scheduler.At(3), ""), true},
		}, 2},
		{"the first push itself past the store", []step{
			{2, push(1, scheduler.At(3), ""), true},
		}, 0},
		{"a failed push starts a new run", []step{
			{2, push(1, scheduler.AtPath(1, "/a"), ""), false},
			{3, push(2, scheduler.AtPath(2, "/b"), "injected transport-post-dispatch: websocket closed"), false},
			{-1, other(3, faults.OpConnect), false},
			{3, push(4, scheduler.At(3), ""), false},
		}, 1},
		{"another call of the actor starts a new run", []step{
			{2, push(1, scheduler.AtPath(1, "/a"), ""), false},
			{-1, other(2, faults.OpExec), false},
			{5, push(3, scheduler.At(5), ""), false},
		}, 0},
		{"a push never seen at its entry is not judged", []step{
			{-1, push(1, scheduler.At(9), ""), false},
		}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w PushTargetWatch
			for _, s := range tc.steps {
				if s.entered >= 0 {
					w.Entered(0, actor, s.entered)
				}
				detail := w.Note(0, "b0", s.call)
				if fired := detail != ""; fired != s.fires {
					t.Fatalf("call #%d: fired %v (%q), want %v", s.call.Seq, fired, detail, s.fires)
				}
				if s.fires && !strings.Contains(detail, "SPEC 6.5") {
					t.Fatalf("detail %q does not cite the rule", detail)
				}
			}
			if w.Moved != tc.moved {
				t.Fatalf("Moved = %d, want %d", w.Moved, tc.moved)
			}
		})
	}
}

// TestPushTargetPerActorAndBackend: one actor's entries never bound
// another's pushes, nor one backend's another's.
func TestPushTargetPerActorAndBackend(t *testing.T) {
	var w PushTargetWatch
	w.Entered(0, "#1.exec.b0", 1)
	w.Entered(1, "#2.exec.b1", 5)
	w.Entered(0, "#3.exec.b0", 5)
	if d := w.Note(1, "b1", faults.Call{Seq: 1, Actor: "#2.exec.b1", Op: faults.OpPush, Sender: scheduler.At(5)}); d != "" {
		t.Fatalf("b1's push judged by b0's entry: %s", d)
	}
	if d := w.Note(0, "b0", faults.Call{Seq: 1, Actor: "#3.exec.b0", Op: faults.OpPush, Sender: scheduler.At(5)}); d != "" {
		t.Fatalf("#3's push judged by #1's entry: %s", d)
	}
	if d := w.Note(0, "b0", faults.Call{Seq: 2, Actor: "#1.exec.b0", Op: faults.OpPush, Sender: scheduler.At(5)}); d == "" {
		t.Fatal("#1's push past its own entry's revision passed")
	}
}
