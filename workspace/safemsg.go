package workspace

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"unicode/utf16"
)

// maxSafeErrorLength is the SPEC 1.4 limit, in UTF-16 code units.
const maxSafeErrorLength = 512

// The original (observe.ts) redacts with two JavaScript regular expressions
// under the flags /gi and no /u:
//
//	/\b(authorization|token|api[_-]?key|password|secret|cookie)=([^\s&]+)/gi
//	/\bBearer\s+[^\s,;]+/gi
//
// Go's RE2 reads that same text differently in two ways that leak or
// over-redact, so the expressions below spell out what JavaScript means:
//
//   - JavaScript's \s is WhiteSpace plus LineTerminator, Unicode spaces
//     included; RE2's \s is ASCII only. With RE2, "Bearer<U+00A0>tok" kept
//     its token and "token=abc<U+00A0>tail" swallowed "tail".
//   - /i without /u compares Canonicalize(ch), an upper-casing that never
//     takes a non-ASCII character to an ASCII one; RE2's (?i) uses Unicode
//     simple folding, where U+212A KELVIN SIGN is k and U+017F LONG S is s.
//     Every keyword is ASCII, so [Tt][Oo]... is exactly JavaScript's set.
//
// \b is the ASCII word boundary in both engines (no /u flag), so it stays.
// workspace/testdata/safemsg holds a golden file written by JavaScript itself
// (gen.mjs) that TestSafeTextGolden compares against.

// jsWhitespace is the body of a character class holding exactly the code
// points JavaScript's \s matches (ECMA-262 WhiteSpace and LineTerminator under
// Unicode 15: TAB VT FF SP NBSP ZWNBSP, category Zs, LF CR LS PS). U+180E
// left Zs in Unicode 6.3; U+0085 and U+200B were never in the set.
const jsWhitespace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

var (
	redactAssignment = regexp.MustCompile(`\b(` +
		asciiFold("authorization") + `|` +
		asciiFold("token") + `|` +
		asciiFold("api") + `[_-]?` + asciiFold("key") + `|` +
		asciiFold("password") + `|` +
		asciiFold("secret") + `|` +
		asciiFold("cookie") +
		`)=([^` + jsWhitespace + `&]+)`)
	redactBearer = regexp.MustCompile(`\b` + asciiFold("Bearer") +
		`[` + jsWhitespace + `]+[^` + jsWhitespace + `,;]+`)
)

// asciiFold turns an ASCII word into a pattern matching it in any ASCII case
// and nothing else: what JavaScript's /i (without /u) does for ASCII letters.
func asciiFold(word string) string {
	var b strings.Builder
	for i := 0; i < len(word); i++ {
		c := word[i]
		lower, upper := c|0x20, c&^0x20
		if lower < 'a' || lower > 'z' {
			b.WriteString(regexp.QuoteMeta(word[i : i+1]))
			continue
		}
		b.WriteByte('[')
		b.WriteByte(upper)
		b.WriteByte(lower)
		b.WriteByte(']')
	}
	return b.String()
}

// safeErrorMessage is SPEC 1.4: the message of err, control characters
// (< 0x20 and 0x7F) turned into spaces, credentials redacted, then cut to
// 512 characters. A nil error gives "" (callers never pass one).
func safeErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	return safeText(err.Error())
}

// safeText is the body of the original's safeErrorMessage, step for step.
//
// A Go string may hold bytes that are not UTF-8, which a JavaScript string
// cannot. strings.Map turns each such byte into U+FFFD (one per byte, where a
// WHATWG TextDecoder would give one per maximal bad sequence), so the
// redaction sees what JavaScript would see after decoding and the result is
// always valid UTF-8.
func safeText(msg string) string {
	msg = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, msg)
	// Each expression runs only where it could match: every message the
	// workspace stores passes through here, and most hold neither an
	// assignment nor the word Bearer. The checks are exact necessary
	// conditions, so the result is the same as running both always.
	if strings.IndexByte(msg, '=') >= 0 {
		msg = redactAssignment.ReplaceAllString(msg, "${1}=[REDACTED]")
	}
	if containsASCIIFold(msg, "bearer") {
		msg = redactBearer.ReplaceAllString(msg, "Bearer [REDACTED]")
	}
	return truncateUTF16(msg, maxSafeErrorLength)
}

// containsASCIIFold reports whether s holds word (lower-case ASCII letters)
// in any ASCII case: the set /i without /u matches. OR-ing 0x20 takes only
// an ASCII letter's two cases to the lower one; no other byte lands on a
// lower-case letter that way.
func containsASCIIFold(s, word string) bool {
	for i := 0; i+len(word) <= len(s); i++ {
		j := 0
		for j < len(word) && s[i+j]|0x20 == word[j] {
			j++
		}
		if j == len(word) {
			return true
		}
	}
	return false
}

// truncateUTF16 keeps the first n UTF-16 code units of s, the way JS
// String.prototype.slice counts.
//
// NB: deliberate deviation. Where JS would cut a surrogate pair in half and
// keep a lone high surrogate (an astral character such as an emoji across the
// 512th unit), Go cannot hold one in valid UTF-8, so the whole character is
// dropped and the result is one unit shorter. The golden file marks those
// cases (jsLoneHigh) and TestSafeTextGolden applies this rule to them.
func truncateUTF16(s string, n int) string {
	units := 0
	for i, r := range s {
		w := utf16.RuneLen(r)
		if w < 1 {
			w = 1
		}
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}

// jsonString renders s the way JSON.stringify does (no HTML escaping), for
// messages that quote a backend id or an execution label.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return `"` + s + `"`
	}
	return strings.TrimSuffix(b.String(), "\n")
}
