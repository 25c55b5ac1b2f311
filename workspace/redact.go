package workspace

import (
	"strings"
	"unicode/utf8"
)

// The two redactions of SPEC 1.4 as scanners instead of regular expressions.
// Every error message the workspace stores passes through them, and RE2's
// backtracking matcher over the keyword alternation was the most expensive
// part of turning an error into a result. They do exactly what these
// JavaScript expressions do under /gi without /u (see safemsg.go for how
// JavaScript reads \s, \b and /i, and TestSafeTextGolden for the outputs
// JavaScript itself wrote):
//
//	/\b(authorization|token|api[_-]?key|password|secret|cookie)=([^\s&]+)/gi
//	/\bBearer\s+[^\s,;]+/gi
//
// A global replace takes the leftmost match, then searches again after its
// end. An assignment's keyword ends right before its '=' and holds no '=',
// so matches start in the order of their '='; a keyword also holds no space
// or '&', so it can never begin inside the value of the match before it.
// Scanning the '=' signs left to right and resuming after each match's
// value therefore finds the same matches, in the same order, as the
// expression.

// redactAssignments replaces the value of every credential assignment in
// msg with [REDACTED], keeping the keyword as written.
func redactAssignments(msg string) string {
	var out splice
	for i := 0; ; {
		eq := strings.IndexByte(msg[i:], '=')
		if eq < 0 {
			break
		}
		eq += i
		end := eq + 1 + valueLen(msg[eq+1:], isAssignmentStop)
		if end == eq+1 || !assignmentKeyword(msg, eq) {
			i = eq + 1
			continue
		}
		out.replace(msg, eq+1, end, "[REDACTED]")
		i = end
	}
	return out.result(msg)
}

// assignmentKeyword reports whether one of the credential keywords, in any
// ASCII case, ends right before msg[eq] (the '=') and starts at an ASCII
// word boundary. The match keeps the keyword as written, so where it starts
// does not matter; no two keywords end in the same letters.
func assignmentKeyword(msg string, eq int) bool {
	before := msg[:eq]
	for _, kw := range [...]string{"authorization", "token", "password", "secret", "cookie"} {
		if endsWithFold(before, kw) {
			return atWordStart(msg, eq-len(kw))
		}
	}
	// api[_-]?key
	if !endsWithFold(before, "key") {
		return false
	}
	rest := before[:len(before)-len("key")]
	if n := len(rest); n > 0 && (rest[n-1] == '_' || rest[n-1] == '-') {
		rest = rest[:n-1]
	}
	return endsWithFold(rest, "api") && atWordStart(msg, len(rest)-len("api"))
}

// atWordStart reports whether \b holds before msg[start], a keyword's first
// letter: the byte before must not be an ASCII word character (a byte of a
// multi-byte character never is).
func atWordStart(msg string, start int) bool {
	return start == 0 || !isASCIIWord(msg[start-1])
}

// redactBearers replaces every "Bearer <token>" in msg (the word in any
// ASCII case, then JavaScript whitespace, then the token) with
// "Bearer [REDACTED]".
func redactBearers(msg string) string {
	const word = "bearer"
	var out splice
	for i := 0; i+len(word) <= len(msg); {
		at := indexFold(msg[i:], word)
		if at < 0 {
			break
		}
		at += i
		spaces := spaceLen(msg[at+len(word):])
		token := at + len(word) + spaces
		end := token + valueLen(msg[token:], isBearerStop)
		if !atWordStart(msg, at) || spaces == 0 || end == token {
			i = at + 1
			continue
		}
		out.replace(msg, at, end, "Bearer [REDACTED]")
		i = end
	}
	return out.result(msg)
}

// splice builds a copy of a message with some spans replaced, left to
// right; a message with no replacement is returned as it is, uncopied.
type splice struct {
	b      strings.Builder
	copied int // msg[:copied] is in b
	used   bool
}

// replace puts with in place of msg[from:to]; from is at or after the end
// of the previous replacement.
func (s *splice) replace(msg string, from, to int, with string) {
	if !s.used {
		s.b.Grow(len(msg))
		s.used = true
	}
	s.b.WriteString(msg[s.copied:from])
	s.b.WriteString(with)
	s.copied = to
}

// result is msg with every replacement made.
func (s *splice) result(msg string) string {
	if !s.used {
		return msg
	}
	s.b.WriteString(msg[s.copied:])
	return s.b.String()
}

// valueLen is the length in bytes of the longest prefix of s whose runes
// are not stops.
func valueLen(s string, stop func(rune) bool) int {
	for i, r := range s {
		if stop(r) {
			return i
		}
	}
	return len(s)
}

// spaceLen is the length in bytes of the run of JavaScript whitespace that
// starts s.
func spaceLen(s string) int {
	for i, r := range s {
		if !isJSSpace(r) {
			return i
		}
	}
	return len(s)
}

// isAssignmentStop ends an assignment's value: [^\s&].
func isAssignmentStop(r rune) bool { return r == '&' || isJSSpace(r) }

// isBearerStop ends a bearer token: [^\s,;].
func isBearerStop(r rune) bool { return r == ',' || r == ';' || isJSSpace(r) }

// isJSSpace is JavaScript's \s: exactly the code points of jsWhitespace.
func isJSSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || (r >= '\t' && r <= '\r')
	}
	switch {
	case r == 0xa0, r == 0x1680, r >= 0x2000 && r <= 0x200a,
		r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000, r == 0xfeff:
		return true
	}
	return false
}

// isASCIIWord is \w without /u: [0-9A-Za-z_].
func isASCIIWord(c byte) bool {
	return c == '_' || (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

// endsWithFold reports whether s ends with word (lower-case ASCII letters)
// in any ASCII case.
func endsWithFold(s, word string) bool {
	return len(s) >= len(word) && hasFoldAt(s, len(s)-len(word), word)
}

// indexFold is the first index of word (lower-case ASCII letters) in s in
// any ASCII case, or -1.
func indexFold(s, word string) int {
	for i := 0; i+len(word) <= len(s); i++ {
		if hasFoldAt(s, i, word) {
			return i
		}
	}
	return -1
}

// hasFoldAt reports whether s[i:] starts with word (lower-case ASCII
// letters) in any ASCII case. OR-ing 0x20 takes only an ASCII letter's
// two cases to the lower one; no other byte lands on a lower-case letter.
func hasFoldAt(s string, i int, word string) bool {
	for j := 0; j < len(word); j++ {
		if s[i+j]|0x20 != word[j] {
			return false
		}
	}
	return true
}
