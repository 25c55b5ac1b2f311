package oracle

import (
	"strings"
	"unicode/utf8"
)

// SPEC 1.4's safeErrorMessage, as the harness reads it: the judge predicts
// texts the workspace builds from error messages (SPEC 5.2's reconnect
// wrappers quote two of them), so it needs the rule itself, written here
// apart from the workspace's scanners (workspace/redact.go). The original
// is two JavaScript expressions:
//
//	/\b(authorization|token|api[_-]?key|password|secret|cookie)=([^\s&]+)/gi
//	/\bBearer\s+[^\s,;]+/gi
//
// What JavaScript means by them without the /u flag: \s is JavaScript's
// white space and line terminators (isJSSpace, not RE2's ASCII \s); /i
// folds ASCII letters only (no U+212A KELVIN SIGN for k, no U+017F LONG S
// for s); \b is the ASCII word boundary. A global replace takes the
// leftmost match, replaces it and goes on after it, over the original
// text; the second expression runs over the first one's output.
//
// The two scans below say exactly that. They were regular expressions
// (the test keeps them, jsPatterns, and holds the scans to them on random
// texts); as code they cost the judge a tenth of what the regexp engine
// did, and the judge predicts a text at almost every failed operation.
// TestSafeTextMatchesJavaScript holds the result to the outputs JavaScript
// itself wrote (workspace/testdata/safemsg).

// isJSSpace reports whether r is in JavaScript's \s: WhiteSpace and
// LineTerminator, category Zs under Unicode 15 and later.
func isJSSpace(r rune) bool {
	switch {
	case r == ' ' || r >= '\t' && r <= '\r':
		return true
	case r < 0xa0:
		return false
	}
	switch r {
	case 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// isWordByte reports whether c is in \w (ASCII letters, digits, '_'); a
// byte of a multi-byte character never is.
func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
}

// boundaryBefore reports whether \b holds just before s[i], a word byte.
func boundaryBefore(s string, i int) bool { return i == 0 || !isWordByte(s[i-1]) }

// hasFoldPrefix reports whether s[i:] starts with word (lower-case ASCII
// letters) in some ASCII case.
func hasFoldPrefix(s string, i int, word string) bool {
	if len(s)-i < len(word) {
		return false
	}
	for j := range len(word) {
		if s[i+j]|0x20 != word[j] {
			return false
		}
	}
	return true
}

// runEnd returns where the run of characters from i that are neither
// JavaScript white space nor in stop ends.
func runEnd(s string, i int, stop string) int {
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if isJSSpace(r) || strings.ContainsRune(stop, r) {
			break
		}
		i += w
	}
	return i
}

// credentialNames are the first expression's names but api[_-]?key, in
// its order (no two begin alike, so at most one matches anywhere).
var credentialNames = []string{"authorization", "token", "password", "secret", "cookie"}

// credentialNameEnd returns where a credential name starting at s[i]
// ends, or -1 when none starts there.
func credentialNameEnd(s string, i int) int {
	if hasFoldPrefix(s, i, "api") {
		j := i + 3
		if j < len(s) && (s[j] == '_' || s[j] == '-') && hasFoldPrefix(s, j+1, "key") {
			return j + 4
		}
		if hasFoldPrefix(s, j, "key") {
			return j + 3
		}
		return -1
	}
	for _, name := range credentialNames {
		if hasFoldPrefix(s, i, name) {
			return i + len(name)
		}
	}
	return -1
}

// redactAssignments is the first expression's replace: name=value becomes
// name=[REDACTED], the name as written.
func redactAssignments(s string) string {
	var out []byte
	kept := 0 // s[kept:] is not in out yet
	for i := 0; i < len(s); i++ {
		if !boundaryBefore(s, i) {
			continue
		}
		eq := credentialNameEnd(s, i)
		if eq < 0 || eq >= len(s) || s[eq] != '=' {
			continue
		}
		end := runEnd(s, eq+1, "&")
		if end == eq+1 {
			continue
		}
		out = append(append(out, s[kept:eq]...), "=[REDACTED]"...)
		kept, i = end, end-1
	}
	return replaced(s, out, kept)
}

// redactBearerTokens is the second expression's replace: "Bearer", white
// space and a token become "Bearer [REDACTED]".
func redactBearerTokens(s string) string {
	var out []byte
	kept := 0
	for i := 0; i < len(s); i++ {
		if !boundaryBefore(s, i) || !hasFoldPrefix(s, i, "bearer") {
			continue
		}
		token := spaceEnd(s, i+len("bearer"))
		if token == i+len("bearer") {
			continue
		}
		end := runEnd(s, token, ",;")
		if end == token {
			continue
		}
		out = append(append(out, s[kept:i]...), "Bearer [REDACTED]"...)
		kept, i = end, end-1
	}
	return replaced(s, out, kept)
}

// replaced finishes a scan's replace: s itself when nothing matched (out
// nil), else out followed by what is left of s from kept.
func replaced(s string, out []byte, kept int) string {
	if out == nil {
		return s
	}
	return string(append(out, s[kept:]...))
}

// spaceEnd returns where the run of JavaScript white space from i ends.
func spaceEnd(s string, i int) int {
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if !isJSSpace(r) {
			break
		}
		i += w
	}
	return i
}

// maxSafeUnits is SPEC 1.4's cut, in UTF-16 code units.
const maxSafeUnits = 512

// SafeText is SPEC 1.4's safeErrorMessage of an error whose message is
// msg: control characters (below 0x20, and 0x7F) as spaces, credential
// assignments' values and Bearer tokens redacted, cut to 512 UTF-16 code
// units (CutUTF16). msg must be valid UTF-8: a JavaScript string holds no
// other.
func SafeText(msg string) string {
	msg = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, msg)
	return CutUTF16(redactBearerTokens(redactAssignments(msg)), maxSafeUnits)
}

// CutUTF16 keeps the longest prefix of s of at most n UTF-16 code units,
// as JavaScript's slice(0, n) counts them. An astral character across the
// cut is dropped whole: JavaScript would keep its high surrogate, which
// has no UTF-8 form (the workspace documents the same deviation).
func CutUTF16(s string, n int) string {
	units := 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}
