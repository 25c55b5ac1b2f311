package workspace

import (
	"errors"
	"strings"
	"testing"
)

func TestSafeErrorMessage(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"line1\nline2\ttab\x7fdel\x00nul", "line1 line2 tab del nul"},
		{"token=abc123&x=1", "token=[REDACTED]&x=1"},
		{"Authorization=xyz more", "Authorization=[REDACTED] more"},
		{"API_KEY=k api-key=k apikey=k", "API_KEY=[REDACTED] api-key=[REDACTED] apikey=[REDACTED]"},
		{"password=hunter2; secret=s cookie=c", "password=[REDACTED] secret=[REDACTED] cookie=[REDACTED]"},
		{"mytoken=abc", "mytoken=abc"},
		{"header Bearer abc.def,next", "header Bearer [REDACTED],next"},
		{"bearer   xyz", "Bearer [REDACTED]"},
		{strings.Repeat("a", 600), strings.Repeat("a", 512)},
		{strings.Repeat("é", 600), strings.Repeat("é", 512)},
		{strings.Repeat("a", 511) + "😀", strings.Repeat("a", 511)},
		// Issue 11: JavaScript's \s holds Unicode spaces, and its /i folds
		// no non-ASCII letter to an ASCII one. RE2's \s and (?i) differ.
		{"Bearer\u00a0x", "Bearer [REDACTED]"},
		{"token=abc\u00a0tail", "token=[REDACTED]\u00a0tail"},
		{"coo\u212Aie=v", "coo\u212Aie=v"},
		{"\u017Fecret=v pa\u017F\u017Fword=v", "\u017Fecret=v pa\u017F\u017Fword=v"},
		{"x\u2028Bearer\ufeff\u3000tok;y", "x\u2028Bearer [REDACTED];y"},
		{"Bearer\u200bx Bearer\u0085x", "Bearer\u200bx Bearer\u0085x"},
		// Bad UTF-8 (a Go string only): each bad byte is U+FFFD first.
		{"token=\xffabc \xe2\x82!", "token=[REDACTED] \ufffd\ufffd!"},
	}
	for _, tc := range tests {
		if got := safeErrorMessage(errors.New(tc.in)); got != tc.want {
			t.Errorf("safeErrorMessage(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
