package oracle

import (
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// Each view is judged against the backend's previous one and the remote.
func TestLocalViewChecker(t *testing.T) {
	file := func(path string, rev int64, content string) workspace.File {
		return workspace.File{Path: path, Rev: rev, Content: []byte(content)}
	}
	remote := []workspace.File{file("/w/a", 2, "a"), file("/host/1", 1, "h")}
	for _, tc := range []struct {
		name  string
		views []history.View
		want  string // "" for none, else the violation's start
	}{
		{"in step", []history.View{
			{Fetch: scheduler.At(1), CurrentRev: 2},
			{Fetch: scheduler.At(2), CurrentRev: 2, AppliedPush: scheduler.At(1), Push: scheduler.At(1),
				Listed: true, Local: []workspace.File{file("/host/1", 1, "h"), file("/w/a", 2, "a")}, Remote: remote},
		}, ""},
		{"the fetch cursor moves back", []history.View{{Fetch: scheduler.At(2), CurrentRev: 2}, {Fetch: scheduler.At(1), CurrentRev: 2}},
			"cursor-monotone: backend b0: fetch cursor moved back from {2,null} to {1,null}"},
		{"the fetch cursor past the remote", []history.View{{Fetch: scheduler.At(3), CurrentRev: 2}},
			"fetched-applied: backend b0: fetch cursor {3,null} is past the remote's current revision 2"},
		{"a covered entry missing", []history.View{{Fetch: scheduler.At(2), CurrentRev: 2, Listed: true, Remote: remote}},
			"fetched-applied: backend b0: fetch cursor {2,null} covers remote /w/a at rev 2, which the local store does not hold"},
		{"the push cursor past the remote's", []history.View{{Push: scheduler.At(1)}},
			"pushed-applied: backend b0: local push cursor {1,null} is past the remote's applied-push cursor {0,null}"},
		{"a claimed push the remote lacks", []history.View{{AppliedPush: scheduler.At(1), Listed: true, Local: []workspace.File{file("/host/2", 1, "x")}}},
			"pushed-applied: backend b0: the remote's applied-push cursor {1,null} covers host write /host/2 at local rev 1, which the remote does not hold"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			events := make([]history.Event, len(tc.views))
			for i := range tc.views {
				events[i] = history.Event{Kind: history.LocalView, View: &tc.views[i]}
			}
			expectFirst(t, &LocalViewChecker{}, history.Setup{Backends: []string{"b0"}}, events, tc.want)
		})
	}
}
