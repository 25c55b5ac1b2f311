package sim

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
)

// The secrecy property (SPEC 1.4). Every error the fault injector makes
// carries a fake credential (faults.Secrets) in one of the forms the
// redactor must catch, or past the truncation cut. No result error the SUT
// returns, no stored field and no trace line may carry any part of one; a
// result error must also be safe text: no control character and at most 512
// UTF-16 code units.
//
// The errors a call throws (an exec that fails, a rejected retry) are not
// sanitised by the contract — the original throws them as they are — so the
// harness scrubs them itself before printing (faults.PublicText); its own
// trace is then held to the same rule by Trace.Flag.

// maxResultErrorUnits is the SPEC 1.4 cut.
const maxResultErrorUnits = 512

// plantSecrets gives every container its planter, each on its own stream
// so that planting never moves a fault draw, and flags the trace.
func (h *Host) plantSecrets() {
	for i, c := range h.containers {
		s := faults.NewSecrets(Stream(h.cfg.Seed, "secrets/"+BackendLabel(i)))
		c.PlantSecrets(s)
		h.secrets = append(h.secrets, s)
	}
	// One planter for the intent store across host starts: the wrapper is
	// rebuilt at each start, the stream goes on.
	h.storeSecrets = faults.NewSecrets(Stream(h.cfg.Seed, "secrets/store"))
	h.secrets = append(h.secrets, h.storeSecrets)
	h.localSecrets = faults.NewSecrets(Stream(h.cfg.Seed, "secrets/local"))
	h.secrets = append(h.secrets, h.localSecrets)
	h.trace.Flag(faults.SecretMarker)
}

// resultError is the error text an operation's result carries (a retry's,
// or a command's sync result), named for reports; "" for other kinds.
func resultError(f finished) (what, text string) {
	switch f.kind {
	case "retry":
		return "retry result error", f.retry.Error
	case "exec":
		return "exec sync result error", f.exec.Sync.Error
	}
	return "", ""
}

// judgeSecrecy checks the error text of a finished operation's result.
func (h *Host) judgeSecrecy(f finished) *Violation {
	if f.err != nil {
		return nil // thrown, not a result: see the file comment
	}
	what, text := resultError(f)
	if text == "" {
		return nil
	}
	units := len(utf16.Encode([]rune(text)))
	if faults.ContainsSecret(text) {
		return h.fail("secrecy", fmt.Sprintf("%s: %s of %s carries a planted credential (%d UTF-16 units): %q",
			f.actor, what, h.names[f.backend], units, leakContext(text)))
	}
	if units > maxResultErrorUnits {
		return h.fail("secrecy", fmt.Sprintf("%s: %s of %s is %d UTF-16 units, over the %d cut",
			f.actor, what, h.names[f.backend], units, maxResultErrorUnits))
	}
	if i := strings.IndexFunc(text, func(r rune) bool { return r < 0x20 || r == 0x7f }); i >= 0 {
		return h.fail("secrecy", fmt.Sprintf("%s: %s of %s holds control character %U at byte %d",
			f.actor, what, h.names[f.backend], text[i], i))
	}
	if v := h.judgeCutLength(f, what, text, units); v != nil {
		return v
	}
	if v := h.judgeNearMisses(f, what, text); v != nil {
		return v
	}
	if strings.Contains(text, "[REDACTED]") {
		h.stats.Secrets["result-redacted"]++
	}
	if units >= maxResultErrorUnits-1 { // -1: the dropped half pair (README deviations)
		h.stats.Secrets["result-cut"]++
	}
	return nil
}

// judgeNearMisses holds the redactor to exactly SPEC 1.4's patterns: every
// near-miss span (faults.SecretForms) a result error holds whole is the
// image its planter recorded, its credential redacted and every near miss
// as written. A span the 512-unit cut shortened proves nothing and is
// skipped (the cut has its own check).
func (h *Host) judgeNearMisses(f finished, what, text string) *Violation {
	for rest := text; ; {
		id, span, after, whole, ok := faults.NextSpan(rest)
		if !ok || !whole {
			return nil
		}
		rest = after
		want, planted := h.spanImage(id)
		if !planted {
			continue // not one of this run's (the SUT cannot invent one; nothing to hold it to)
		}
		h.stats.Secrets["near-miss-checked"]++
		if span != want {
			return h.fail("secrecy", fmt.Sprintf("%s: %s of %s redacts beyond SPEC 1.4's patterns: got %q, want %q",
				f.actor, what, h.names[f.backend], faults.ScrubSecrets(span), want))
		}
	}
}

// spanImage is the recorded image of the near-miss span id, from whichever
// planter planted it.
func (h *Host) spanImage(id string) (string, bool) {
	for _, p := range h.secrets {
		if img, ok := p.Image(id); ok {
			return img, true
		}
	}
	return "", false
}

// leakContext is the text around the first planted credential, with the
// credential itself scrubbed: enough to see which form leaked.
func leakContext(text string) string {
	i := strings.Index(text, faults.SecretMarker)
	lo, hi := max(0, i-40), min(len(text), i+len(faults.SecretMarker)+40)
	for lo > 0 && !utf8Start(text[lo]) {
		lo--
	}
	for hi < len(text) && !utf8Start(text[hi]) {
		hi++
	}
	return faults.ScrubSecrets(text[lo:hi])
}

func utf8Start(b byte) bool { return b&0xc0 != 0x80 }

// traceSecrecy fails the run when any trace line so far carried a planted
// credential: the harness must never print one.
func (h *Host) traceSecrecy() *Violation {
	if line, leaked := h.trace.Flagged(); leaked {
		return h.fail("secrecy", "a trace line carries a planted credential: "+faults.ScrubSecrets(line))
	}
	return nil
}

// storedSecrecy checks the text fields of the stored intents: none is an
// error text today, so a credential there is a leak by construction.
func (h *Host) storedSecrecy(intents []scheduler.Intent) *Violation {
	for _, in := range intents {
		if faults.ContainsSecret(in.Backend) || in.RuntimeID != nil && faults.ContainsSecret(*in.RuntimeID) {
			return h.fail("secrecy", "a stored intent carries a planted credential: "+faults.ScrubSecrets(h.intentText(in)))
		}
	}
	return nil
}

// plantedCounts adds what the planters planted, per form, to s.
func (h *Host) plantedCounts(s map[string]int) {
	for _, p := range h.secrets {
		for form, n := range p.Planted() {
			s["planted "+form] += n
		}
		for name, n := range p.Shapes() {
			s["error-shape "+name] += n
		}
	}
}

// judgeCutLength: a result error the 512-unit cut shortened is exactly 512
// units long, or 511 when the 512th unit would split a surrogate pair (the
// Go deviation, README). The harness knows a message was cut when it ends
// inside the past-cut padding it planted (longer than the cut on its own),
// and then knows the character the cut stopped before. Messages whose
// last padding sits in a part the SPEC 5.2 wrapper shortens itself
// ("last=<msg[:240]>", "not replayed: <msg[:240]>") are left alone: that
// part ends where the wrapper cut it, not where the 512 rule did.
func (h *Host) judgeCutLength(f finished, what, text string, units int) *Violation {
	pad := faults.PastCutPadding()
	start := pad[:len(pad)/8] // long enough to be the padding, short enough to be kept
	k := strings.LastIndex(text, start)
	if k < 0 || strings.Contains(text[:k], "last=") || strings.Contains(text[:k], "not replayed: ") {
		return nil
	}
	tail := text[k:]
	if !strings.HasPrefix(pad, tail) || len(tail) == len(pad) {
		return nil
	}
	next, _ := utf8.DecodeRuneInString(pad[len(tail):])
	want := maxResultErrorUnits
	if utf16.RuneLen(next) == 2 && units == maxResultErrorUnits-1 {
		want = units
	}
	if units != want {
		return h.fail("secrecy", fmt.Sprintf("%s: %s of %s was cut at %d UTF-16 units, expected %d (SPEC 1.4: the first 512 units, the next character being %U)",
			f.actor, what, h.names[f.backend], units, want, next))
	}
	return nil
}
