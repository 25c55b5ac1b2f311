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

var (
	redactAssignment = regexp.MustCompile(`(?i)\b(authorization|token|api[_-]?key|password|secret|cookie)=([^\s&]+)`)
	redactBearer     = regexp.MustCompile(`(?i)\bBearer\s+[^\s,;]+`)
)

// safeErrorMessage is SPEC 1.4: the message of err, control characters
// (< 0x20 and 0x7F) turned into spaces, credentials redacted, then cut to
// 512 characters. A nil error gives "" (callers never pass one).
func safeErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	return safeText(err.Error())
}

func safeText(msg string) string {
	msg = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, msg)
	msg = redactAssignment.ReplaceAllString(msg, "${1}=[REDACTED]")
	msg = redactBearer.ReplaceAllString(msg, "Bearer [REDACTED]")
	return truncateUTF16(msg, maxSafeErrorLength)
}

// truncateUTF16 keeps the first n UTF-16 code units of s, the way JS
// String.prototype.slice counts.
//
// NB: where JS would cut a surrogate pair in half and keep a lone high
// surrogate, Go cannot hold one in valid UTF-8, so the whole character is
// dropped and the result is one unit shorter.
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
