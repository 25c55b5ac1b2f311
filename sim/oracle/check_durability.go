package oracle

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/google/go-cmp/cmp"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// DurabilityChecker judges property durability (SPEC 6.1, 6.7): a host
// restart finds the local store holding exactly what it held — files with
// content and revision, both cursors, the scalar pushRev, the local
// revision — and the host can read its own stores at all (a failure the
// driver records, history.DriverFailed). The intents' half is the model
// family's intent-table, judged after every restart like after every step.
type DurabilityChecker struct{}

// Reads: reopened local stores and the driver's failures.
func (DurabilityChecker) Reads() history.Kinds {
	return history.Of(history.LocalReopened, history.DriverFailed)
}

// Begin starts a run.
func (DurabilityChecker) Begin(history.Setup, history.Records) {}

// Observe judges one reopen, or reports the host's failed read.
func (DurabilityChecker) Observe(e *history.Event, rep history.Reporter) {
	switch e.Kind {
	case history.DriverFailed:
		if e.Driver.Property == "durability" {
			rep.Violate("durability", e.Driver.Detail)
		}
	case history.LocalReopened:
		if d := e.Durable; !slices.EqualFunc(d.Before, d.After, sameLocal) {
			rep.Violate("durability", "local store after the host restart differs from what it held (-before +after):\n"+
				cmp.Diff(renderLocal(d.Before), renderLocal(d.After)))
		}
	}
}

func sameLocal(a, b history.LocalBackend) bool {
	return a.Fetch == b.Fetch && a.Push == b.Push && a.PushRev == b.PushRev && a.Rev == b.Rev &&
		slices.EqualFunc(a.Files, b.Files, func(x, y workspace.File) bool {
			return x.Path == y.Path && x.Rev == y.Rev && bytes.Equal(x.Content, y.Content)
		})
}

// renderLocal prints local states for a failure message only.
func renderLocal(ls []history.LocalBackend) []string {
	var out []string
	for i, l := range ls {
		out = append(out, fmt.Sprintf("b%d fetch=%s push=%s pushRev=%d rev=%d", i, l.Fetch, l.Push, l.PushRev, l.Rev))
		for _, f := range l.Files {
			out = append(out, fmt.Sprintf("b%d %s rev=%d %q", i, f.Path, f.Rev, f.Content))
		}
	}
	return out
}
