package oracle

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// The tail's verdicts: a stranded intent, a tail push or pull that failed
// with faults off, local files that differ from the remote's, host writes
// not re-pushed after a lost log, a remote file missing after one, and a
// sync-less backend that holds the other side's files.
func TestLivenessChecker(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	setup := history.Setup{Backends: []string{"b0", "b1"}, SyncNone: 1, T0: t0, Retry: workspace.RetryOptions{MaxAttempts: 3}}
	file := func(path, content string) workspace.File { return workspace.File{Path: path, Content: []byte(content)} }
	tail := func(b0 history.TailBackend) *history.Event {
		return &history.Event{Kind: history.TailEnded, Tail: &history.Tail{Backends: []history.TailBackend{b0, {}}}}
	}
	for _, tc := range []struct {
		name string
		e    *history.Event
		want string
	}{
		{"exhausted intent left", &history.Event{Kind: history.TailBegan, Tail: &history.Tail{}, Intents: []scheduler.Intent{{Backend: "b0", Attempt: 3, NotBefore: t0}}}, ""},
		{"stranded intent", &history.Event{Kind: history.TailBegan, Tail: &history.Tail{}, Intents: []scheduler.Intent{{Backend: "b0", Attempt: 2, NotBefore: t0}}}, "liveness-intents"},
		{"alarm never ran out", &history.Event{Kind: history.TailBegan, Tail: &history.Tail{AlarmStuck: true, Rounds: 256}}, "liveness-intents"},
		{"tail push failed", &history.Event{Kind: history.OpReturned, Actor: "#9.tail.b0", Op: &history.Op{Kind: "tail-push", Err: errors.New("x")}}, "liveness-files"},
		{"tail pull failed", &history.Event{Kind: history.OpReturned, Actor: "#9.tail.b0", Op: &history.Op{Kind: "tail-sync", Err: errors.New("x")}}, "liveness-files"},
		{"first tail pull failed: not this family's", &history.Event{Kind: history.OpReturned, Actor: "#9.tail.b0", Op: &history.Op{Kind: "tail-pull", Err: errors.New("x")}}, ""},
		{"same files", tail(history.TailBackend{Local: []workspace.File{file("/a", "1")}, Remote: []workspace.File{file("/a", "1")}}), ""},
		{"files differ", tail(history.TailBackend{Local: []workspace.File{file("/a", "1")}, Remote: []workspace.File{file("/a", "2")}}), "liveness-files"},
		{"log lost, not reconnected", tail(history.TailBackend{LogLost: true, Local: []workspace.File{file("/a", "1"), file("/host/1", "h")}, Remote: []workspace.File{file("/a", "1")}}), ""},
		{"log lost, host write not re-pushed", tail(history.TailBackend{LogLost: true, Reconnected: true, Local: []workspace.File{file("/host/1", "h")}}), "liveness-push"},
		{"log lost, remote file missing", tail(history.TailBackend{LogLost: true, Remote: []workspace.File{file("/a", "1")}}), "liveness-converge"},
		{"log lost, blind to a truncation", tail(history.TailBackend{LogLost: true, Blind: true, Remote: []workspace.File{file("/a", "1")}}), ""},
		{"sync-less backend holds a remote file", &history.Event{Kind: history.TailEnded, Tail: &history.Tail{Backends: []history.TailBackend{{}, {Local: []workspace.File{file("/a", "1")}}}}}, "liveness-files"},
	} {
		var rep recorder
		c := Lookup("liveness-files").New(nil)
		c.Begin(setup, nil)
		c.Observe(tc.e, &rep)
		got := ""
		if len(rep.violations) > 0 {
			got, _, _ = strings.Cut(rep.violations[0], ":")
		}
		if got != tc.want {
			t.Errorf("%s: expected %q, got %q (%v)", tc.name, tc.want, got, rep.violations)
		}
	}
}
