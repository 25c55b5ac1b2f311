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
	}
	for _, tc := range tests {
		if got := safeErrorMessage(errors.New(tc.in)); got != tc.want {
			t.Errorf("safeErrorMessage(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
