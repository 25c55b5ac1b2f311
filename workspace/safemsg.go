package workspace

import (
	"bytes"
	"encoding/json"
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
// redact.go does what they do with two scanners; TestSafeTextGolden holds
// them to a golden file written by JavaScript itself (testdata/safemsg,
// gen.mjs), and FuzzSafeText to a second, independent model. How JavaScript
// reads the expressions, which is what the scanners follow:
//
//   - \s is WhiteSpace plus LineTerminator, Unicode spaces included:
//     exactly TAB VT FF SP NBSP ZWNBSP, category Zs, LF CR LS PS under
//     Unicode 15 (isJSSpace). U+180E left Zs in Unicode 6.3; U+0085 and
//     U+200B were never in the set. (Go's RE2 \s is ASCII only: with it,
//     "Bearer<U+00A0>tok" kept its token and "token=abc<U+00A0>tail"
//     swallowed "tail".)
//   - /i without /u compares Canonicalize(ch), an upper-casing that never
//     takes a non-ASCII character to an ASCII one, so every keyword matches
//     in ASCII case only (RE2's (?i) would also take U+212A KELVIN SIGN for
//     k and U+017F LONG S for s).
//   - \b is the ASCII word boundary (no /u flag).

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
	msg = redactAssignments(msg)
	msg = redactBearers(msg)
	return truncateUTF16(msg, maxSafeErrorLength)
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
