package oracle

import (
	"regexp"
	"strings"
)

// SPEC 1.4's safeErrorMessage, as the harness reads it: the judge predicts
// texts the workspace builds from error messages (SPEC 5.2's reconnect
// wrappers quote two of them), so it needs the rule itself, written here
// apart from the workspace's scanners (workspace/redact.go) as the two
// JavaScript expressions of the original, spelled for RE2:
//
//	/\b(authorization|token|api[_-]?key|password|secret|cookie)=([^\s&]+)/gi
//	/\bBearer\s+[^\s,;]+/gi
//
// What JavaScript means by them without the /u flag, and RE2 would read
// otherwise: \s is JavaScript's white space and line terminators (jsSpace,
// not RE2's ASCII \s); /i folds ASCII letters only (RE2's (?i) would also
// take U+212A KELVIN SIGN for k and U+017F LONG S for s), so every letter
// is a class of its two ASCII cases; \b is the ASCII word boundary, as in
// RE2. TestSafeTextMatchesJavaScript holds the result to the outputs
// JavaScript itself wrote (workspace/testdata/safemsg).

// jsSpace is the class body of JavaScript's \s: WhiteSpace and
// LineTerminator, category Zs under Unicode 15 and later.
const jsSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

var (
	redactAssignment = regexp.MustCompile(`\b(` + asciiFold("authorization") + `|` + asciiFold("token") + `|` +
		asciiFold("api") + `[_-]?` + asciiFold("key") + `|` + asciiFold("password") + `|` + asciiFold("secret") + `|` +
		asciiFold("cookie") + `)=[^` + jsSpace + `&]+`)
	redactBearer = regexp.MustCompile(`\b` + asciiFold("bearer") + `[` + jsSpace + `]+[^` + jsSpace + `,;]+`)
)

// asciiFold is word as a pattern matching it in any ASCII case only.
func asciiFold(word string) string {
	var b strings.Builder
	for _, c := range word {
		b.WriteString("[" + strings.ToLower(string(c)) + strings.ToUpper(string(c)) + "]")
	}
	return b.String()
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
	// Both patterns need a literal the scan below finds far faster than
	// the regexp engine fails: an assignment needs "=", a token "bearer"
	// in some ASCII case. Most texts the judge predicts have neither.
	if strings.IndexByte(msg, '=') >= 0 {
		msg = redactAssignment.ReplaceAllString(msg, "${1}=[REDACTED]")
	}
	if containsFoldASCII(msg, "bearer") {
		msg = redactBearer.ReplaceAllLiteralString(msg, "Bearer [REDACTED]")
	}
	return CutUTF16(msg, maxSafeUnits)
}

// containsFoldASCII reports whether s holds word (lower-case ASCII letters)
// in any ASCII case, as the patterns' asciiFold classes match it.
func containsFoldASCII(s, word string) bool {
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
