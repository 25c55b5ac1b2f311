package oracle

import (
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// TestLocalStoreChecker replays a short history of local-store calls on
// the model: a correct answer passes, and each wrong one breaks local-store
// at the call that shows it, naming the call.
func TestLocalStoreChecker(t *testing.T) {
	call := func(actor string, l history.Local) history.Event {
		l.Store = "b0"
		return history.Event{Kind: history.LocalCall, Actor: actor, Local: &l}
	}
	write := call("#1.write.b0", history.Local{Op: "write-file", Path: "/a", Content: []byte("x"), Rev: 1})
	for _, tc := range []struct {
		name   string
		events []history.Event
		want   string // "" for none, else the violation's start
	}{
		{"a correct history", []history.Event{
			write,
			call("#2.exec.b0", history.Local{Op: "current-rev", Rev: 1}),
			call("#2.exec.b0", history.Local{Op: "local-changes", Through: scheduler.At(1), Changes: []workspace.Change{{Rev: 1, Path: "/a", Content: []byte("x")}}}),
			call("#2.exec.b0", history.Local{Op: "apply-upstream", Changes: []workspace.Change{{Rev: 3, Path: "/b", Content: []byte("y")}}, N: 1}),
			call("#2.exec.b0", history.Local{Op: "write-fetch-cursor-if-ahead", Cursor: scheduler.AtPath(3, "/b"), OK: true}),
			call("", history.Local{Op: "fetch-cursor", Cursor: scheduler.AtPath(3, "/b")}),
			call("", history.Local{Op: "files", Files: []workspace.File{{Path: "/a", Rev: 1, Content: []byte("x")}, {Path: "/b", Rev: 3, Content: []byte("y")}}}),
			{Kind: history.LocalView, Backend: 0, View: &history.View{Fetch: scheduler.AtPath(3, "/b")}},
		}, ""},
		{"a write stamped with the wrong revision", []history.Event{
			call("#1.write.b0", history.Local{Op: "write-file", Path: "/a", Content: []byte("x"), Rev: 2}),
		}, `local-store: #1.write.b0: local store write-file b0 "/a": expected rev 1, got rev 2`},
		{"an apply that miscounts", []history.Event{
			write,
			call("#2.pull.b0", history.Local{Op: "apply-upstream", Changes: []workspace.Change{{Rev: 3, Path: "/a", Content: []byte("x")}}, N: 1}),
		}, "local-store: #2.pull.b0: local store apply-upstream b0 of 1 entries: expected 0 applied"},
		{"a listing out of order", []history.Event{
			write,
			call("#2.pull.b0", history.Local{Op: "apply-upstream", Changes: []workspace.Change{{Rev: 3, Path: "/0", Content: []byte("y")}}, N: 1}),
			call("", history.Local{Op: "files", Files: []workspace.File{{Path: "/a", Rev: 1, Content: []byte("x")}, {Path: "/0", Rev: 3, Content: []byte("y")}}}),
		}, "local-store: host: local store files b0: expected [/0@3 /a@1], got [/a@1 /0@3]"},
		{"a cursor that moves back", []history.Event{
			call("#2.pull.b0", history.Local{Op: "write-fetch-cursor", Cursor: scheduler.At(5)}),
			call("#3.pull.b0", history.Local{Op: "write-fetch-cursor-if-ahead", Cursor: scheduler.At(4), OK: true}),
		}, "local-store: #3.pull.b0: local store write-fetch-cursor-if-ahead b0 {4,null}: expected false, got true"},
		{"a stored cursor read between steps", []history.Event{
			call("#2.exec.b0", history.Local{Op: "write-push-cursor", Cursor: scheduler.AtPath(1, "/a")}),
			{Kind: history.LocalView, Backend: 0, View: &history.View{Push: scheduler.At(1)}},
		}, "local-store: host: local store push-cursor b0: expected {1,\"/a\"}, got {1,null}"},
		{"a handed-out content changed in place", []history.Event{
			{Kind: history.LocalMutated, Actor: "#3.write.b0", Mutated: &history.Mutated{After: "write-file", Store: "b0", Op: "files", From: "b0", Path: "/a", Rev: 1, Was: []byte("x"), Now: []byte("z")}},
		}, `local-store: #3.write.b0: local store write-file b0: the content of /a (rev 1) that files b0 handed out earlier changed in place from "x" to "z"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectFirst(t, &LocalStoreChecker{}, history.Setup{Backends: []string{"b0"}}, tc.events, tc.want)
		})
	}
}
