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
					w.ReadRev(0, actor, s.entered)
					w.Entered(0, actor)
				}
				property, detail := w.Note(0, "b0", s.call)
				if fired := property == "push-target"; fired != s.fires {
					t.Fatalf("call #%d: push-target fired %v (%s %q), want %v", s.call.Seq, fired, property, detail, s.fires)
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
	enter := func(b int, actor string, rev int64) { w.ReadRev(b, actor, rev); w.Entered(b, actor) }
	enter(0, "#1.exec.b0", 1)
	enter(1, "#2.exec.b1", 5)
	enter(0, "#3.exec.b0", 5)
	if p, d := w.Note(1, "b1", faults.Call{Seq: 1, Actor: "#2.exec.b1", Op: faults.OpPush, Sender: scheduler.At(5)}); p == "push-target" {
		t.Fatalf("b1's push judged by b0's entry: %s", d)
	}
	if p, d := w.Note(0, "b0", faults.Call{Seq: 1, Actor: "#3.exec.b0", Op: faults.OpPush, Sender: scheduler.At(5)}); p == "push-target" {
		t.Fatalf("#3's push judged by #1's entry: %s", d)
	}
	if p, _ := w.Note(0, "b0", faults.Call{Seq: 2, Actor: "#1.exec.b0", Op: faults.OpPush, Sender: scheduler.At(5)}); p != "push-target" {
		t.Fatal("#1's push past its own entry's revision passed")
	}
}

// TestPushBatchRule: the watch predicts each batch from the store the
// batch read and the budget: how many changes, and the sender cursor (the
// last change sent when candidates were left over or exactly MaxEntries
// were found, else the target); and no call when complete.
func TestPushBatchRule(t *testing.T) {
	const actor = "#4.exec.b0"
	change := func(rev int64, path string, bytes int64) PendingChange {
		return PendingChange{Cursor: scheduler.AtPath(rev, path), Bytes: bytes}
	}
	three := []PendingChange{change(1, "/a", 10), change(2, "/b", 10), change(3, "/c", 10)}
	for _, tc := range []struct {
		name    string
		budget  PushBudget
		cursor  scheduler.Cursor
		rev     int64
		pending []PendingChange
		changes int
		sender  scheduler.Cursor
		fires   bool
	}{
		{"all fit: the target acknowledged", PushBudget{256, 1 << 20}, scheduler.Baseline, 3, three, 3, scheduler.At(3), false},
		{"all fit, sent short", PushBudget{256, 1 << 20}, scheduler.Baseline, 3, three, 2, scheduler.AtPath(2, "/b"), true},
		{"entry budget leaves some", PushBudget{2, 1 << 20}, scheduler.Baseline, 3, three[:2], 2, scheduler.AtPath(2, "/b"), false},
		{"exactly the entry budget found: no probe", PushBudget{3, 1 << 20}, scheduler.Baseline, 3, three, 3, scheduler.AtPath(3, "/c"), false},
		{"exactly the entry budget, target claimed", PushBudget{3, 1 << 20}, scheduler.Baseline, 3, three, 3, scheduler.At(3), true},
		{"byte budget: the first always goes", PushBudget{256, 1}, scheduler.Baseline, 3, three, 1, scheduler.AtPath(1, "/a"), false},
		{"byte budget: two fit exactly", PushBudget{256, 20}, scheduler.Baseline, 3, three, 2, scheduler.AtPath(2, "/b"), false},
		{"byte budget: a third sent over it", PushBudget{256, 20}, scheduler.Baseline, 3, three, 3, scheduler.At(3), true},
		{"nothing left: an empty push acknowledges", PushBudget{256, 20}, scheduler.AtPath(3, "/c"), 3, nil, 0, scheduler.At(3), false},
		{"cursor at the target: no call", PushBudget{256, 20}, scheduler.At(3), 3, nil, 0, scheduler.At(3), true},
		{"never pushed, nothing pending: no call", PushBudget{256, 20}, scheduler.Baseline, 3, nil, 0, scheduler.At(3), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := PushTargetWatch{Budget: tc.budget}
			w.ReadRev(0, actor, tc.rev)
			w.ReadCursor(0, actor, tc.cursor)
			w.ReadPending(0, actor, tc.pending)
			w.Entered(0, actor)
			property, detail := w.Note(0, "b0", faults.Call{Seq: 1, Actor: actor, Op: faults.OpPush, Changes: tc.changes, Sender: tc.sender})
			if fired := property == "push-batch"; fired != tc.fires {
				t.Fatalf("push-batch fired %v (%s %q), want %v", fired, property, detail, tc.fires)
			}
		})
	}
}
