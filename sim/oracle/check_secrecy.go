package oracle

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/event"
	"github.com/syncsim/syncsim/sim/history"
)

// SecrecyChecker is property secrecy (SPEC 1.4). Every error the fault
// injector makes carries a fake credential (faults.Secrets) in one of the
// forms the redactor must catch, or past the truncation cut. No result
// error the system under test returns, no stored field and no trace line
// may carry any part of one; a result error must also be safe text: no
// control character and at most 512 UTF-16 code units, cut exactly there,
// and redacted exactly as SPEC 1.4's patterns say (no more: the near-miss
// spans hold text that looks like a credential and is not one).
//
// The errors a call throws (an exec that fails, a rejected retry) are not
// sanitised by the contract — the original throws them as they are — so the
// harness scrubs them itself before printing (faults.PublicText); the trace
// it prints is then held to the same rule. What is held is what the trace
// keeps (the StepEnd and RunEnd events carry its records written since the
// last one, history.SnapTrace; StepEnd also carries the stored intents):
// the fields as the driver's renderers wrote them, not the values they
// were made from, so a renderer that forgot to scrub a field is what the
// rule is there to catch. A record that holds a credential is rendered to
// its line, and the line is what is reported.
type SecrecyChecker struct {
	want  func(string) bool
	setup history.Setup
	// planted lends the planters' near-miss images (the driver's Records
	// do); without it a near-miss span is not judged.
	planted history.Planted
}

// Reads: finished operations (their result errors), step ends (the stored
// intents and the trace) and the run's end (the trace).
func (c *SecrecyChecker) Reads() history.Kinds {
	return history.Of(history.OpReturned, history.StepEnd, history.RunEnd)
}

// Snapshots: the trace's records, at StepEnd and RunEnd.
func (c *SecrecyChecker) Snapshots() history.Snapshots { return history.SnapTrace }

// Begin starts a run.
func (c *SecrecyChecker) Begin(s history.Setup, r history.Records) {
	c.setup = s
	c.planted, _ = r.(history.Planted)
}

// Observe judges one event.
func (c *SecrecyChecker) Observe(e *history.Event, rep history.Reporter) {
	if c.want != nil && !c.want("secrecy") {
		return
	}
	switch e.Kind {
	case history.OpReturned:
		c.result(e, rep)
	case history.StepEnd:
		if !c.stored(e.Intents, rep) {
			c.trace(e.Trace, rep)
		}
	case history.RunEnd:
		c.trace(e.Trace, rep)
	}
}

// result checks the error text of a finished operation's result; a
// cancelled operation is property cancel's.
func (c *SecrecyChecker) result(e *history.Event, rep history.Reporter) {
	op := e.Op
	if op.Cancelled || op.Err != nil {
		return // thrown, not a result: see the type's comment
	}
	what, text := ResultError(op)
	if text == "" {
		return
	}
	backend := c.setup.Backends[e.Backend]
	units := len(utf16.Encode([]rune(text)))
	if faults.ContainsSecret(text) {
		rep.Violate("secrecy", fmt.Sprintf("%s: %s of %s carries a planted credential (%d UTF-16 units): %q",
			e.Actor, what, backend, units, leakContext(text)))
		return
	}
	if units > maxSafeUnits {
		rep.Violate("secrecy", fmt.Sprintf("%s: %s of %s is %d UTF-16 units, over the %d cut",
			e.Actor, what, backend, units, maxSafeUnits))
		return
	}
	if i := strings.IndexFunc(text, func(r rune) bool { return r < 0x20 || r == 0x7f }); i >= 0 {
		rep.Violate("secrecy", fmt.Sprintf("%s: %s of %s holds control character %U at byte %d",
			e.Actor, what, backend, text[i], i))
		return
	}
	if d := cutLength(text, units); d != "" {
		rep.Violate("secrecy", fmt.Sprintf("%s: %s of %s %s", e.Actor, what, backend, d))
		return
	}
	if c.nearMisses(e, what, backend, text, rep) {
		return
	}
	if strings.Contains(text, "[REDACTED]") {
		rep.Reach(history.ReachSecret + "result-redacted")
	}
	if units >= maxSafeUnits-1 { // -1: the dropped half pair (README deviations)
		rep.Reach(history.ReachSecret + "result-cut")
	}
}

// nearMisses holds the redactor to exactly SPEC 1.4's patterns: every
// near-miss span (faults.SecretForms) a result error holds whole is the
// image its planter recorded (history.Planted), its credential redacted
// and every near miss as written. A span the 512-unit cut shortened proves
// nothing and is skipped (the cut has its own check). It reports whether
// it found a violation.
func (c *SecrecyChecker) nearMisses(e *history.Event, what, backend, text string, rep history.Reporter) bool {
	for rest := text; ; {
		id, span, after, whole, ok := faults.NextSpan(rest)
		if !ok || !whole {
			return false
		}
		rest = after
		if c.planted == nil {
			return false
		}
		want, planted := c.planted.SpanImage(id)
		if !planted {
			continue // not one of this run's (the SUT cannot invent one; nothing to hold it to)
		}
		rep.Reach(history.ReachSecret + "near-miss-checked")
		if span != want {
			rep.Violate("secrecy", fmt.Sprintf("%s: %s of %s redacts beyond SPEC 1.4's patterns: got %q, want %q",
				e.Actor, what, backend, faults.ScrubSecrets(span), want))
			return true
		}
	}
}

// cutLength: a result error the 512-unit cut shortened is exactly 512
// units long, or 511 when the 512th unit would split a surrogate pair (the
// Go deviation, README). The harness knows a message was cut when it ends
// inside the past-cut padding it planted (longer than the cut on its own),
// and then knows the character the cut stopped before. Messages whose
// last padding sits in a part the SPEC 5.2 wrapper shortens itself
// ("last=<msg[:240]>", "not replayed: <msg[:240]>") are left alone: that
// part ends where the wrapper cut it, not where the 512 rule did. It
// returns what is wrong ("" for nothing).
func cutLength(text string, units int) string {
	pad := faults.PastCutPadding()
	start := pad[:len(pad)/8] // long enough to be the padding, short enough to be kept
	k := strings.LastIndex(text, start)
	if k < 0 || strings.Contains(text[:k], "last=") || strings.Contains(text[:k], "not replayed: ") {
		return ""
	}
	tail := text[k:]
	if !strings.HasPrefix(pad, tail) || len(tail) == len(pad) {
		return ""
	}
	next, _ := utf8.DecodeRuneInString(pad[len(tail):])
	want := maxSafeUnits
	if utf16.RuneLen(next) == 2 && units == maxSafeUnits-1 {
		want = units
	}
	if units != want {
		return fmt.Sprintf("was cut at %d UTF-16 units, expected %d (SPEC 1.4: the first 512 units, the next character being %U)", units, want, next)
	}
	return ""
}

// stored checks the text fields of the stored intents: none is an error
// text today, so a credential there is a leak by construction. It reports
// whether it found one.
func (c *SecrecyChecker) stored(intents []scheduler.Intent, rep history.Reporter) bool {
	for _, in := range intents {
		if faults.ContainsSecret(in.Backend) || in.RuntimeID != nil && faults.ContainsSecret(*in.RuntimeID) {
			at := func(b []byte, t time.Time) []byte { return event.AppendOffset(b, t.Sub(c.setup.T0)) }
			rep.Violate("secrecy", "a stored intent carries a planted credential: "+faults.ScrubSecrets(string(faults.AppendIntent(nil, in, at))))
			return true
		}
	}
	return false
}

// trace checks the trace written since the last check (its records,
// sim.Trace.Unread): the harness must never print a credential.
func (c *SecrecyChecker) trace(records []byte, rep history.Reporter) {
	// A record holds every field of its line unrendered, and rendering
	// only joins fields with spaces and quotes one holding a line break,
	// so a line that carries a credential comes from a record that holds
	// it: only such a record is rendered, to hold its line to the rule.
	marker := []byte(faults.SecretMarker)
	if !bytes.Contains(records, marker) {
		return
	}
	var line []byte
	for r, rest, ok := event.NextRecord(records); ok; r, rest, ok = event.NextRecord(rest) {
		if !bytes.Contains(r, marker) {
			continue
		}
		if line = r.AppendText(line[:0]); bytes.Contains(line, marker) {
			rep.Violate("secrecy", "a trace line carries a planted credential: "+faults.ScrubSecrets(string(line)))
			return
		}
	}
}

// leakContext is the text around the first planted credential, with the
// credential itself scrubbed: enough to see which form leaked.
func leakContext(text string) string {
	i := strings.Index(text, faults.SecretMarker)
	lo, hi := max(0, i-40), min(len(text), i+len(faults.SecretMarker)+40)
	for lo > 0 && !utf8.RuneStart(text[lo]) {
		lo--
	}
	for hi < len(text) && !utf8.RuneStart(text[hi]) {
		hi++
	}
	return faults.ScrubSecrets(text[lo:hi])
}
