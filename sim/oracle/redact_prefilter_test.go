package oracle

import (
	"regexp"
	"testing"
)

// TestSafeTextPrefilter: SafeText skips a pattern only when its literal is
// absent, so the skip never changes a result. containsFoldASCII finds
// "bearer" in every ASCII case and nowhere else (not across a non-letter
// whose bit 5 would fold it onto a letter, nor in non-ASCII look-alikes);
// and on texts built around the literals SafeText agrees with the patterns
// applied unconditionally.
func TestSafeTextPrefilter(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"Bearer x", true}, {"xBEARERy", true}, {"bEaReR", true}, {"beare", false}, {"", false},
		{"B\x05ARER", false}, {"bearer"[:5] + "\xd2", false}, {"be@rer", false}, {"\u212aearer", false},
	} {
		if got := containsFoldASCII(tc.s, "bearer"); got != tc.want {
			t.Errorf("containsFoldASCII(%q, bearer) = %t, want %t", tc.s, got, tc.want)
		}
	}
	unfiltered := func(msg string) string {
		msg = regexp.MustCompile(`[\x00-\x1f\x7f]`).ReplaceAllString(msg, " ")
		msg = redactAssignment.ReplaceAllString(msg, "${1}=[REDACTED]")
		msg = redactBearer.ReplaceAllLiteralString(msg, "Bearer [REDACTED]")
		return CutUTF16(msg, maxSafeUnits)
	}
	for _, msg := range []string{
		"dial: token=abc; retry", "auth BEARER   tok,en", "no secret here", "password=", "x api-key=1&y=2",
		"bearer\ttab", "Authorization=Bearer q", "cookie=a\nb", "=== bearer ===",
	} {
		if got, want := SafeText(msg), unfiltered(msg); got != want {
			t.Errorf("SafeText(%q) = %q, want %q", msg, got, want)
		}
	}
}
