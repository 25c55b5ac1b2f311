package workspace

import (
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// fuzzSeedStride picks every n-th golden input as a fuzz seed: a few hundred
// that cover every kind the generator makes, without slowing `go test`.
const fuzzSeedStride = 40

// FuzzSafeText holds safeText to jsSafeText, the regexp-free model of the
// original, and to the invariants SPEC 1.4 promises of any result.
//
//	go test ./workspace -run XXX -fuzz FuzzSafeText -fuzztime 10m
func FuzzSafeText(f *testing.F) {
	_, cases := loadSafemsgGolden(f)
	for i := 0; i < len(cases); i += fuzzSeedStride {
		f.Add(cases[i].In)
	}
	for _, s := range []string{"", "token=\xffabc", "\xe2\x82a Bearer\xc2\xa0x", "coo\u212aie=v"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := safeText(s)
		if want := jsSafeText(s); got != want {
			t.Fatalf("safeText(%q)\n got %q\nwant %q (reference model)", s, got, want)
		}
		if !utf8.ValidString(got) {
			t.Fatalf("safeText(%q) = %q: not valid UTF-8", s, got)
		}
		units := 0
		for _, r := range got {
			if r < 0x20 || r == 0x7f {
				t.Fatalf("safeText(%q) = %q: control character %U kept", s, got, r)
			}
			units += utf16.RuneLen(r)
		}
		if units > maxSafeErrorLength {
			t.Fatalf("safeText(%q) is %d UTF-16 units, limit %d", s, units, maxSafeErrorLength)
		}
	})
}
