package oracle

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// jsSpaceClass is the class body of JavaScript's \s for RE2.
const jsSpaceClass = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// asciiFold is word as a pattern matching it in any ASCII case only (RE2's
// (?i) would also fold U+212A and U+017F onto k and s).
func asciiFold(word string) string {
	var b strings.Builder
	for _, c := range word {
		b.WriteString("[" + strings.ToLower(string(c)) + strings.ToUpper(string(c)) + "]")
	}
	return b.String()
}

// jsPatterns are SPEC 1.4's two expressions spelled for RE2, the reading
// the scans in redact.go replaced: the reference they are held to.
var jsPatterns = struct{ assignment, bearer *regexp.Regexp }{
	regexp.MustCompile(`\b(` + asciiFold("authorization") + `|` + asciiFold("token") + `|` +
		asciiFold("api") + `[_-]?` + asciiFold("key") + `|` + asciiFold("password") + `|` + asciiFold("secret") + `|` +
		asciiFold("cookie") + `)=[^` + jsSpaceClass + `&]+`),
	regexp.MustCompile(`\b` + asciiFold("bearer") + `[` + jsSpaceClass + `]+[^` + jsSpaceClass + `,;]+`),
}

func safeTextByPatterns(msg string) string {
	msg = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, msg)
	msg = jsPatterns.assignment.ReplaceAllString(msg, "${1}=[REDACTED]")
	msg = jsPatterns.bearer.ReplaceAllLiteralString(msg, "Bearer [REDACTED]")
	return CutUTF16(msg, maxSafeUnits)
}

// TestSafeTextMatchesPatterns: the scans give what the two expressions
// give, on hand-picked edges and on 200,000 random texts built from the
// pieces that matter (names in mixed case, '=', '&', ',', ';', '_', '-',
// JavaScript's white space ASCII and not, word and non-word neighbours,
// look-alikes such as U+212A).
func TestSafeTextMatchesPatterns(t *testing.T) {
	for _, msg := range []string{
		"dial: token=abc; retry", "auth BEARER   tok,en", "no secret here", "password=", "x api-key=1&y=2",
		"bearer\ttab", "Authorization=Bearer q", "cookie=a\nb", "=== bearer ===", "xtoken=1 _token=2 -token=3",
		"apikey=1 api_key=2 api--key=3 API-KEY=4", "bearer\u00a0t bearer\u2000,x bearerx y", "\u212aey=1 api\u212aey=2",
		"token=a=b&c token==d", "Bearer Bearer x", "secret=\u3000", "cookie=é&", "tokentoken=1",
	} {
		if got, want := SafeText(msg), safeTextByPatterns(msg); got != want {
			t.Errorf("SafeText(%q) = %q, want %q", msg, got, want)
		}
	}
	pieces := []string{
		"token", "TOKEN", "ToKeN", "api", "Api", "key", "KEY", "_", "-", "authorization", "password", "secret", "cookie",
		"bearer", "Bearer", "BEARER", "=", "=", "&", ",", ";", " ", "\t", "\u00a0", "\u2003", "\u3000", "\ufeff",
		"x", "7", "é", "\u212a", "\u017f", ".", "/", ":", "\U0001F600",
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200_000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		msg := b.String()
		if got, want := SafeText(msg), safeTextByPatterns(msg); got != want {
			t.Fatalf("SafeText(%q) = %q, want %q", msg, got, want)
		}
	}
}
