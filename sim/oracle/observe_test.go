package oracle

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/sim/history"
)

// expectFirst feeds events to c, begun with s, and holds the first
// violation it reports to want: none for "", else one that starts with
// want ("property: detail...").
func expectFirst(t *testing.T, c Checker, s history.Setup, events []history.Event, want string) {
	t.Helper()
	c.Begin(s, nil)
	var rep recorder
	for i := range events {
		c.Observe(&events[i], &rep)
	}
	switch {
	case want == "" && len(rep.violations) > 0:
		t.Fatalf("expected nothing, got %v", rep.violations)
	case want != "" && (len(rep.violations) == 0 || !strings.HasPrefix(rep.violations[0], want)):
		t.Fatalf("expected %q, got %v", want, rep.violations)
	}
}
