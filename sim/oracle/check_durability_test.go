package oracle

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// A restart finds the local store as it was, field by field; a host read
// that failed is reported as durability, and only a durability failure.
func TestDurabilityChecker(t *testing.T) {
	held := func() []history.LocalBackend {
		return []history.LocalBackend{{Files: []workspace.File{{Path: "/a", Content: []byte("1"), Rev: 2}},
			Fetch: scheduler.At(3), Push: scheduler.AtPath(2, "/a"), PushRev: 2, Rev: 2}}
	}
	changed := map[string]func(*history.LocalBackend){
		"same":          func(*history.LocalBackend) {},
		"content":       func(l *history.LocalBackend) { l.Files[0].Content = []byte("2") },
		"file revision": func(l *history.LocalBackend) { l.Files[0].Rev = 1 },
		"file lost":     func(l *history.LocalBackend) { l.Files = nil },
		"fetch cursor":  func(l *history.LocalBackend) { l.Fetch = scheduler.At(2) },
		"push cursor":   func(l *history.LocalBackend) { l.Push = scheduler.At(2) },
		"push rev":      func(l *history.LocalBackend) { l.PushRev = 1 },
		"local rev":     func(l *history.LocalBackend) { l.Rev = 3 },
	}
	for name, change := range changed {
		after := held()
		change(&after[0])
		var rep recorder
		c := Lookup("durability").New(nil)
		c.Observe(&history.Event{Kind: history.LocalReopened, Durable: &history.Durable{Before: held(), After: after}}, &rep)
		if fired := len(rep.violations) > 0; fired != (name != "same") {
			t.Errorf("%s: expected a violation %t, got %v", name, name != "same", rep.violations)
		}
	}
	var rep recorder
	c := Lookup("durability").New(nil)
	c.Observe(&history.Event{Kind: history.DriverFailed, Driver: &history.DriverFailure{Property: "liveness-files", Detail: "x"}}, &rep)
	c.Observe(&history.Event{Kind: history.DriverFailed, Driver: &history.DriverFailure{Property: "durability", Detail: "local store Files(b0): gone"}}, &rep)
	if len(rep.violations) != 1 || !strings.HasPrefix(rep.violations[0], "durability: local store Files(b0)") {
		t.Fatalf("expected the durability failure alone, got %v", rep.violations)
	}
}
