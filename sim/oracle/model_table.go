package oracle

import (
	"fmt"
	"slices"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/event"
	"github.com/syncsim/syncsim/sim/history"
)

// judgeTable is intent-table and attempt-range between steps: the stored
// table (the driver's listing at StepEnd) equals the model's, and every
// intent the library wrote has 1 <= attempt <= maxAttempts.
func (c *ModelChecker) judgeTable(e *history.Event) bool {
	if c.setup.NoScheduler {
		return false // no store: nothing is listed, and the model stores nothing
	}
	want, intents := c.state.Intents(), e.Intents
	precision := c.setup.TimePrecision
	if !SameIntents(want, intents, precision) {
		if d := cmp.Diff(c.render(want), c.render(intents)); d != "" {
			return c.fail("intent-table", "stored intents: expected the model's, got the store's (-expected +got):\n"+d)
		}
	}
	for _, in := range intents {
		if slices.ContainsFunc(c.planted, func(p plantedIntent) bool {
			return SameIntents([]scheduler.Intent{p.in}, []scheduler.Intent{in}, precision)
		}) {
			continue // host-written: the range is the library's promise
		}
		if in.Attempt < 1 || in.Attempt > c.opts.MaxAttempts {
			return c.fail("attempt-range", fmt.Sprintf("intent %s: expected an attempt in 1..%d, got %d", intentText(in, c.setup.T0), c.opts.MaxAttempts, in.Attempt))
		}
	}
	return false
}

// judgeProbe is intent-table for the intent-store probe at the first
// start: every answer of the bare store equals what the probe wrote there
// (a listing is ordered by backend id too).
func (c *ModelChecker) judgeProbe(e *history.Event) bool {
	p := e.IntentProbe
	base := c.setup.T0.Add(e.At) // the probe's clock: no time passes during it
	var want, got any
	switch {
	case p.List && !p.Sorted:
		want, got = "intents ordered by backend id", renderAt(p.Got, base)
	case !p.List && p.Found != p.Has:
		want, got = p.Has, p.Found
	case !SameIntents(p.Want, p.Got, c.setup.TimePrecision):
		want, got = renderAt(p.Want, base), renderAt(p.Got, base)
	default:
		return false
	}
	return c.fail("intent-table", fmt.Sprintf("intent store probe (host start 1, backends of its own): %s: expected %v, got %v", p.Call, want, got))
}

// SameIntents is a fast path for the intent-table check: true only when
// the two tables are field-for-field identical (NotBefore truncated to
// precision), so that they render identically; otherwise the rendered
// tables are compared.
func SameIntents(a, b []scheduler.Intent, precision time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		// Equal, not ==: the same instant read in another location (a
		// store that returns UTC) is the same NotBefore.
		if x.Backend != y.Backend || x.Attempt != y.Attempt || !x.NotBefore.Truncate(precision).Equal(y.NotBefore.Truncate(precision)) ||
			!eqPtr(x.RuntimeID, y.RuntimeID) || !eqPtr(x.TargetCursor, y.TargetCursor) {
			return false
		}
	}
	return true
}

// render prints intents for a diff with NotBefore since the clock's start
// to the nanosecond (the store is compared to the nanosecond).
func (c *ModelChecker) render(in []scheduler.Intent) []string { return renderAt(in, c.setup.T0) }

// renderAt is render with NotBefore since base.
func renderAt(in []scheduler.Intent, base time.Time) []string {
	out := make([]string, len(in))
	exact := func(b []byte, t time.Time) []byte { return append(b, event.OffsetExact(t.Sub(base))...) }
	for i, x := range in {
		out[i] = string(faults.AppendIntent(nil, x, exact))
	}
	return out
}

// intentText prints in as the trace does: NotBefore as a time since the
// run's start, t0.
func intentText(in scheduler.Intent, t0 time.Time) string {
	return string(faults.AppendIntent(nil, in, func(b []byte, t time.Time) []byte {
		return event.AppendOffset(b, t.Sub(t0))
	}))
}
