package oracle

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/event"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// planterRecords is a Records whose near-miss images are a planter's.
type planterRecords struct{ s *faults.Secrets }

func (r planterRecords) RuntimeSince(int, int) []faults.Call { return nil }

func (r planterRecords) StoreSince(int) []faults.StoreCall { return nil }

func (r planterRecords) SpanImage(id string) (string, bool) { return r.s.Image(id) }

// secrecyOf feeds a fresh secrecy checker ev (with r's images) and
// returns its violations.
func secrecyOf(r history.Records, want func(string) bool, ev ...history.Event) []string {
	var rep recorder
	c := Lookup("secrecy").New(want)
	c.Begin(history.Setup{Backends: []string{"b0"}, T0: time.Unix(1000, 0)}, r)
	for i := range ev {
		c.Observe(&ev[i], &rep)
	}
	return rep.violations
}

// retryResult is a retry's return whose result error is text.
func retryResult(text string) history.Event {
	return history.Event{Kind: history.OpReturned, Actor: "#1.retry.b0", Op: &history.Op{Kind: "retry", Retry: workspace.RetryResult{Error: text}}}
}

func all(string) bool { return true }

// A result error with a credential, a control character or more than 512
// units breaks secrecy; a thrown error, a cancelled operation or a left-out
// property does not report.
func TestSecrecyResult(t *testing.T) {
	leak := "injected: token=" + faults.SecretMarker + "0123456789ab"
	for _, tc := range []struct {
		name  string
		ev    history.Event
		want  func(string) bool
		fires string
	}{
		{"credential", retryResult(leak), all, "carries a planted credential"},
		{"control character", retryResult("a\x7fb"), all, "control character U+007F"},
		{"over the cut", retryResult(strings.Repeat("x", 513)), all, "is 513 UTF-16 units, over the 512 cut"},
		{"clean", retryResult("token=[REDACTED]"), all, ""},
		{"exec sync result", history.Event{Kind: history.OpReturned, Actor: "#1.exec.b0", Op: &history.Op{Kind: "exec", Exec: workspace.ExecResult{Sync: workspace.SyncResult{Error: leak}}}}, all, "exec sync result error of b0 carries"},
		{"thrown", history.Event{Kind: history.OpReturned, Actor: "#1.exec.b0", Op: &history.Op{Kind: "exec", Err: errors.New(leak), Exec: workspace.ExecResult{Sync: workspace.SyncResult{Error: leak}}}}, all, ""},
		{"cancelled", history.Event{Kind: history.OpReturned, Actor: "#1.retry.b0", Op: &history.Op{Kind: "retry", Cancelled: true, Retry: workspace.RetryResult{Error: leak}}}, all, ""},
		{"left out", retryResult(leak), func(p string) bool { return p != "secrecy" }, ""},
	} {
		got := secrecyOf(nil, tc.want, tc.ev)
		switch {
		case tc.fires == "" && len(got) > 0:
			t.Errorf("%s: expected nothing, got %v", tc.name, got)
		case tc.fires != "" && (len(got) != 1 || !strings.HasPrefix(got[0], "secrecy: ") || !strings.Contains(got[0], tc.fires)):
			t.Errorf("%s: expected secrecy with %q, got %v", tc.name, tc.fires, got)
		case len(got) > 0 && strings.Contains(got[0], faults.SecretMarker):
			t.Errorf("%s: the report repeats the credential: %v", tc.name, got)
		}
	}
}

// A stored intent naming a credential, and a trace line carrying one,
// break secrecy at the step's end (or the run's), reported scrubbed.
func TestSecrecyStoredAndTrace(t *testing.T) {
	secret := faults.SecretMarker + "0123456789ab"
	rt := "rt-" + secret
	stored := []scheduler.Intent{{Backend: "b0", Attempt: 1, NotBefore: time.Unix(1002, 0)}, {Backend: "b1", RuntimeID: &rt, Attempt: 2, NotBefore: time.Unix(1003, 0)}}
	// Three events as the trace keeps them (records); the second's
	// detail carries the credential.
	record := func(b []byte, at time.Duration, actor, kind, detail string) []byte {
		b, start := event.BeginRecord(b, at, actor, kind)
		return event.EndRecord(event.AppendRecordField(b, detail), start)
	}
	first := record(nil, time.Second, "a", "ev", "k=v")
	trace := record(first, 2*time.Second, "b", "rt", `err="x `+secret+`"`)
	trace = record(trace, 3*time.Second, "c", "ev", "k=w")
	// A field whose length byte spells the marker's first letter is not a
	// credential: only the rendered line is held to the rule.
	rest := faults.SecretMarker[1:]
	lookalike := record(nil, time.Second, "a", "ev", rest+strings.Repeat("x", int(faults.SecretMarker[0])-len(rest)))
	if !bytes.Contains(lookalike, []byte(faults.SecretMarker)) {
		t.Fatal("the lookalike record must hold the marker's bytes")
	}
	for _, tc := range []struct {
		name  string
		ev    history.Event
		fires string
	}{
		{"stored runtime id", history.Event{Kind: history.StepEnd, Intents: stored}, "a stored intent carries a planted credential: {backend b1 runtime rt-[planted] attempt 2 notBefore +0000003.000}"},
		{"stored clean", history.Event{Kind: history.StepEnd, Intents: stored[:1]}, ""},
		{"trace at a step's end", history.Event{Kind: history.StepEnd, Trace: trace}, "a trace line carries a planted credential: +0000002.000 b rt err=\"x [planted]\""},
		{"trace at the run's end", history.Event{Kind: history.RunEnd, Trace: trace[len(first):]}, "a trace line carries a planted credential: +0000002.000 b rt err=\"x [planted]\""},
		{"trace clean", history.Event{Kind: history.StepEnd, Trace: first}, ""},
		{"no credential across a record's bytes", history.Event{Kind: history.StepEnd, Trace: lookalike}, ""},
	} {
		got := secrecyOf(nil, all, tc.ev)
		switch {
		case tc.fires == "" && len(got) > 0:
			t.Errorf("%s: expected nothing, got %v", tc.name, got)
		case tc.fires != "" && (len(got) != 1 || got[0] != "secrecy: "+tc.fires):
			t.Errorf("%s: expected secrecy: %q, got %v", tc.name, tc.fires, got)
		}
	}
	if sn, ok := Lookup("secrecy").New(all).(history.Snapshotter); !ok || sn.Snapshots() != history.SnapTrace {
		t.Fatalf("the secrecy checker must ask for the trace")
	}
}

// cutUnits keeps the first n UTF-16 units of s, dropping a pair the cut
// would split (the workspace's rule, written again here).
func cutUnits(s string, n int) string {
	units := 0
	for i, r := range s {
		w := utf16.RuneLen(r)
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}

// A message that ends inside the planted padding must be cut at 512 units
// (511 before a pair); one cut shorter is a violation, and a part the SPEC
// 5.2 wrapper shortened itself is left alone.
func TestCutLength(t *testing.T) {
	pad := faults.PastCutPadding()
	for _, prefix := range []string{"x: ", "xy: ", "injected transport-connect: "} {
		full := prefix + pad + "password: [REDACTED]"
		good := cutUnits(full, 512)
		short := cutUnits(full, 511)
		if short == good {
			short = cutUnits(full, 510) // 511 was the pair rule's own length: one unit less is wrong
		}
		for _, tc := range []struct {
			text  string
			fires bool
		}{{good, false}, {short, true}, {"Workspace backend \"b0\": pull failed after 1 reconnect retry: initial=a; last=" + cutUnits(prefix+pad, 240), false}} {
			got := secrecyOf(nil, all, retryResult(tc.text))
			if fired := len(got) > 0; fired != tc.fires {
				t.Errorf("prefix %q, %d units (ends %q): expected a violation %v, got %v", prefix, len(utf16.Encode([]rune(tc.text))), tc.text[max(0, len(tc.text)-12):], tc.fires, got)
			}
		}
	}
}

// plantedNearMiss draws injected connect failures from a planter until one
// carries a near-miss span, and returns the planter and that error's text.
func plantedNearMiss(t *testing.T) (*faults.Secrets, string) {
	t.Helper()
	s := faults.NewSecrets(rand.New(rand.NewPCG(7, 8)))
	profile := faults.Only(faults.TransportConnect, 1)
	c := faults.NewContainer("b0", faults.NoHooks{}, rand.New(rand.NewPCG(1, 2)), &profile)
	c.PlantSecrets(s)
	for range 1000 {
		_, err := c.Connect(context.Background())
		if err != nil && strings.Contains(err.Error(), faults.SpanOpen) {
			return s, err.Error()
		}
	}
	t.Fatal("no near-miss form in 1000 injected errors")
	return nil, ""
}

// A result error holding a near-miss span as SPEC 1.4 leaves it passes;
// one whose redactor took more (a near miss redacted) or less (the
// credential kept) fails; a span the cut shortened is not judged.
func TestNearMissRule(t *testing.T) {
	s, raw := plantedNearMiss(t)
	id, span, _, whole, ok := faults.NextSpan(raw)
	if !ok || !whole {
		t.Fatalf("NextSpan(%q) found no whole span", raw)
	}
	image, planted := s.Image(id)
	if !planted || !strings.Contains(span, faults.SecretMarker) || strings.Contains(image, faults.SecretMarker) {
		t.Fatalf("span %q, image %q (planted %v): the image must be the span with its credential redacted", faults.ScrubSecrets(span), image, planted)
	}
	prefix := "Workspace backend \"b0\": pull failed: " + strings.SplitN(raw, faults.SpanOpen, 2)[0]
	// Redact one more near miss (each is a "k<digit>" value), or, in a form
	// whose every keyword is a real one, keep one credential it redacts.
	overRedacted := image
	if i := strings.IndexFunc(image, func(r rune) bool { return r == 'k' }); i >= 0 && i+1 < len(image) && image[i+1] >= '0' && image[i+1] <= '9' {
		overRedacted = image[:i] + "[REDACTED]" + image[i+2:]
	} else if i := strings.LastIndex(image, "[REDACTED]"); i >= 0 {
		overRedacted = image[:i] + "k9" + image[i+len("[REDACTED]"):]
	}
	if overRedacted == image {
		t.Fatalf("no way to alter the image %q", image)
	}
	for _, tc := range []struct {
		name, text string
		fires      bool
	}{
		{"as SPEC 1.4 leaves it", prefix + image, false},
		{"a near miss redacted", prefix + overRedacted, true},
		{"cut inside the span", prefix + image[:len(image)/2], false},
		{"no span", prefix, false},
	} {
		got := secrecyOf(planterRecords{s}, all, retryResult(tc.text))
		if fired := len(got) > 0; fired != tc.fires {
			t.Errorf("%s: expected a violation %v, got %v", tc.name, tc.fires, got)
		}
		if fired := len(got) > 0; fired && !strings.Contains(got[0], "redacts beyond SPEC 1.4's patterns") {
			t.Errorf("%s: expected the near-miss report, got %v", tc.name, got)
		}
	}
}
