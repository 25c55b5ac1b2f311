package workspace

import (
	"unicode/utf16"
)

// jsSafeText is a second, independent model of the original's
// safeErrorMessage for FuzzSafeText: no regular expressions, a scanner over
// UTF-16 code units, the way a JavaScript engine sees the string. It shares
// no code with safeText, so a slip in one shows up as a difference.
func jsSafeText(s string) string {
	// A Go string may hold bad UTF-8; []rune gives U+FFFD per bad byte,
	// which is the rule safeText documents.
	u := utf16.Encode([]rune(s))
	for i, c := range u {
		if c < 0x20 || c == 0x7f {
			u[i] = ' '
		}
	}
	u = jsRedactAssignments(u)
	u = jsRedactBearer(u)
	if len(u) > maxSafeErrorLength {
		u = u[:maxSafeErrorLength]
	}
	// The documented deviation: JavaScript keeps the high half of an astral
	// character cut at the limit; a Go string cannot, so it goes.
	if n := len(u); n > 0 && u[n-1] >= 0xd800 && u[n-1] <= 0xdbff {
		u = u[:n-1]
	}
	return string(utf16.Decode(u))
}

// jsKeywords spells out /(authorization|token|api[_-]?key|password|secret|cookie)/.
// No keyword is a prefix of another, so the order of JavaScript's
// alternation cannot choose differently from this list.
var jsKeywords = []string{"authorization", "token", "api_key", "api-key", "apikey", "password", "secret", "cookie"}

// jsRedactAssignments is
// .replace(/\b(authorization|token|api[_-]?key|password|secret|cookie)=([^\s&]+)/gi, "$1=[REDACTED]").
func jsRedactAssignments(u []uint16) []uint16 {
	var out []uint16
	i := 0
scan:
	for i < len(u) {
		if i == 0 || !jsWordUnit(u[i-1]) { // \b before a keyword's first letter
			for _, kw := range jsKeywords {
				eq := i + len(kw)
				if !jsFoldAt(u, i, kw) || eq >= len(u) || u[eq] != '=' {
					continue
				}
				end := eq + 1
				for end < len(u) && !jsSpaceUnit(u[end]) && u[end] != '&' {
					end++
				}
				if end == eq+1 { // [^\s&]+ needs one unit
					continue
				}
				out = append(out, u[i:eq]...)
				out = append(out, utf16.Encode([]rune("=[REDACTED]"))...)
				i = end
				continue scan
			}
		}
		out = append(out, u[i])
		i++
	}
	return out
}

// jsRedactBearer is .replace(/\bBearer\s+[^\s,;]+/gi, "Bearer [REDACTED]").
func jsRedactBearer(u []uint16) []uint16 {
	var out []uint16
	for i := 0; i < len(u); {
		if (i == 0 || !jsWordUnit(u[i-1])) && jsFoldAt(u, i, "bearer") {
			ws := i + len("bearer")
			tok := ws
			for tok < len(u) && jsSpaceUnit(u[tok]) {
				tok++
			}
			end := tok
			for end < len(u) && !jsSpaceUnit(u[end]) && u[end] != ',' && u[end] != ';' {
				end++
			}
			// \s+ cannot give a unit back to [^\s,;]+, so greedy is the only try.
			if tok > ws && end > tok {
				out = append(out, utf16.Encode([]rune("Bearer [REDACTED]"))...)
				i = end
				continue
			}
		}
		out = append(out, u[i])
		i++
	}
	return out
}

// jsFoldAt reports whether the lower-case ASCII word occurs at u[i:] under
// /i without /u: only ASCII letters fold, and only to each other.
func jsFoldAt(u []uint16, i int, word string) bool {
	if i+len(word) > len(u) {
		return false
	}
	for k := 0; k < len(word); k++ {
		c := u[i+k]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != uint16(word[k]) {
			return false
		}
	}
	return true
}

// jsWordUnit is \w without /u: [A-Za-z0-9_].
func jsWordUnit(c uint16) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// jsSpaceUnit is \s: ECMA-262 WhiteSpace (TAB VT FF SP NBSP ZWNBSP and
// category Zs) and LineTerminator (LF CR LS PS).
func jsSpaceUnit(c uint16) bool {
	switch {
	case c >= 0x09 && c <= 0x0d, c == 0x20, c == 0xa0, c == 0x1680,
		c >= 0x2000 && c <= 0x200a, c == 0x2028, c == 0x2029, c == 0x202f,
		c == 0x205f, c == 0x3000, c == 0xfeff:
		return true
	}
	return false
}
