package faults

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"
)

func TestSecretsPlantEveryFormScrubbable(t *testing.T) {
	s := NewSecrets(rand.New(rand.NewPCG(1, 2)))
	seen := map[string]bool{}
	leading, begins := 0, 0 // credentials that lead their fault's text; whole texts that begin with one
	for range 2000 {
		err := s.injected(TransportConnect, msgConnect)
		var ie *InjectedError
		if !errors.As(err, &ie) || !errors.Is(err, ErrInjected) {
			t.Fatalf("%v is not an InjectedError wrapping ErrInjected", err)
		}
		text := err.Error()
		own := ie.Error()
		if !strings.Contains(text, own) {
			t.Fatalf("the whole text must carry the fault's own: %q in %q", own, text)
		}
		switch {
		case ie.Leading:
			if !strings.HasPrefix(own, ie.Credential+" | injected transport-connect: ") {
				t.Fatalf("a leading credential must begin the fault's text: %q", own)
			}
			leading++
			if strings.HasPrefix(text, ie.Credential) {
				begins++
			}
		case !strings.HasPrefix(own, "injected transport-connect: ") || !strings.HasSuffix(own, "; "+ie.Credential):
			t.Fatalf("the fault's own text must come first and the credential last: %q", own)
		}
		if n := strings.Count(text, SecretMarker); n != 1 {
			t.Fatalf("%d credentials in %q, want 1", n, text)
		}
		i := strings.Index(text, SecretMarker) + len(SecretMarker)
		if digits := text[i : i+secretDigits]; strings.TrimFunc(digits, func(r rune) bool { return r < 128 && isLowerHex(byte(r)) }) != "" {
			t.Fatalf("credential digits %q are not %d lowercase hex digits", digits, secretDigits)
		}
		pub := PublicText(err)
		if ContainsSecret(pub) || !strings.Contains(pub, "[planted]") {
			t.Fatalf("PublicText left the credential or lost its place: %q", pub)
		}
		if strings.Contains(pub, text[i:i+secretDigits]) {
			t.Fatalf("PublicText kept the credential's digits: %q", pub)
		}
	}
	// A redactor that needs a character before a keyword only shows on a
	// text that begins with the credential: the shapes must leave some.
	if leading < 300 || leading > 700 || begins == 0 {
		t.Errorf("%d of 2000 credentials led their fault's text (want about a quarter), %d whole texts began with one (want some)", leading, begins)
	}
	for form, n := range s.Planted() {
		seen[form] = n > 0
	}
	for _, f := range SecretForms {
		if !seen[f.Name] {
			t.Errorf("form %s never planted in 2000 errors", f.Name)
		}
	}
}

func TestPastCutPaddingIsPastTheCut(t *testing.T) {
	if n := len(utf16.Encode([]rune(pastCutPadding))); n <= maxSafeErrorUnits {
		t.Fatalf("padding is %d UTF-16 units, must exceed %d", n, maxSafeErrorUnits)
	}
	// Room for the fault's own text and the workspace's wrapping before it.
	const prefixRunes = 160
	if n := len([]rune(pastCutPadding)); n+prefixRunes > maxSafeErrorUnits {
		t.Fatalf("padding is %d runes: with a %d-rune prefix a cut counting runes instead of units would not leak", n, prefixRunes)
	}
	for _, p := range []string{"connection refused", "websocket closed", "container exited", "=", "bearer"} {
		if strings.Contains(strings.ToLower(pastCutPadding), p) {
			t.Errorf("padding holds %q: it must be neutral", p)
		}
	}
}

func TestNilSecretsPlantNothing(t *testing.T) {
	var s *Secrets
	if got := s.injected(Crash, msgCrashed).Error(); got != "injected crash: container exited" {
		t.Fatalf("got %q", got)
	}
	if s.Planted() != nil {
		t.Fatal("a nil planter planted")
	}
}

func TestScrubSecrets(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{"a SIMSECRET0123456789ab b", "a [planted] b"},
		{"SIMSECRET0123456789abSIMSECRETffffffffffff", "[planted][planted]"},
		{"cut SIMSECRET01", "cut [planted]"},
		{"SIMSECRET0123456789abcdef", "[planted]cdef"},
	} {
		if got := ScrubSecrets(c.in); got != c.want {
			t.Errorf("ScrubSecrets(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestNextSpan(t *testing.T) {
	const id = KeepMarker + "0123456789ab"
	whole := SpanOpen + id + " a=1 " + id + SpanClose
	for _, c := range []struct {
		text           string
		wantID, wantSp string
		wantWhole, ok  bool
		wantRest       string
	}{
		{"plain", "", "", false, false, ""},
		{"x " + whole + " y", id, whole, true, true, " y"},
		{"x " + whole[:len(whole)-4], id, "", false, true, " a=1 " + id[:len(id)-1]},
		{SpanOpen + KeepMarker + "01", "", "", false, false, ""}, // anchor cut short
		{SpanOpen + KeepMarker + "0123456789aZ " + whole, id, whole, true, true, ""},
	} {
		id, span, rest, w, ok := NextSpan(c.text)
		if id != c.wantID || span != c.wantSp || w != c.wantWhole || ok != c.ok || (ok && !w && rest != c.wantRest) || (w && rest != c.wantRest) {
			t.Errorf("NextSpan(%q) = %q, %q, %q, %v, %v", c.text, id, span, rest, w, ok)
		}
	}
}
