package faults

import (
	"strings"
	"testing"
)

// TestPaddedMatchesDefinition: padded builds in place what its doc says,
// content then the filler from its start, for sizes around the filler's
// length and its powers of two (where the doubling copy changes step).
func TestPaddedMatchesDefinition(t *testing.T) {
	const filler = "0123456789abcdef"
	want := func(content string, size int) string {
		if size < 0 {
			return content
		}
		if len(content) >= size {
			return content[:size]
		}
		rest := size - len(content)
		return content + strings.Repeat(filler, rest/len(filler)) + filler[:rest%len(filler)]
	}
	for _, content := range []string{"", "x", "p1 exec 3 file 0\n"} {
		for _, size := range []int{-1, 0, 1, 5, 15, 16, 17, 31, 32, 33, 63, 64, 65, 1000, 4096, 70001} {
			if got := string(padded(content, size)); got != want(content, size) {
				t.Fatalf("padded(%q, %d): %d bytes, differs from content+filler (%d bytes)", content, size, len(got), len(want(content, size)))
			}
		}
	}
}
