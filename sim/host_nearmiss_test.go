package sim

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/faults"
)

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

// TestNearMissRule: a result error holding a near-miss span as SPEC 1.4
// leaves it passes; one whose redactor took more (a near miss redacted) or
// less (the credential kept) fails; a span the cut shortened is not judged.
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
		h := newJudgeHost(t, nil)
		h.secrets = append(h.secrets, s)
		v := h.judgeNearMisses(finished{actor: "#1.retry.b0", kind: "retry"}, "retry result error", tc.text)
		if fired := v != nil; fired != tc.fires {
			t.Errorf("%s: expected a violation %v, got %v", tc.name, tc.fires, v)
		}
		h.Close()
	}
}
