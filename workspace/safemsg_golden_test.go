package workspace

import (
	"bufio"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// safemsgGolden is written by JavaScript itself running the original
// function: node workspace/testdata/safemsg/gen.mjs (see its header).
const safemsgGolden = "testdata/safemsg/golden.jsonl"

type safemsgMeta struct {
	Generator  string            `json:"generator"`
	Node       string            `json:"node"`
	Unicode    string            `json:"unicode"`
	Cases      int               `json:"cases"`
	JSLoneHigh int               `json:"jsLoneHigh"`
	Whitespace []rune            `json:"whitespace"`
	Fold       map[string][]rune `json:"fold"`
}

type safemsgCase struct {
	Kind string `json:"k"`
	In   string `json:"in"`
	Out  string `json:"out"`
	// JSLoneHigh is the hex of the high surrogate JavaScript's output ended
	// in and the file's Out leaves off (the documented truncation deviation).
	JSLoneHigh string `json:"jsLoneHigh"`
}

func loadSafemsgGolden(tb testing.TB) (safemsgMeta, []safemsgCase) {
	tb.Helper()
	f, err := os.Open(safemsgGolden)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var head struct{ Meta *safemsgMeta }
	if !sc.Scan() {
		tb.Fatalf("%s: empty", safemsgGolden)
	}
	if err := json.Unmarshal(sc.Bytes(), &head); err != nil || head.Meta == nil {
		tb.Fatalf("%s line 1: not a meta line (%v)", safemsgGolden, err)
	}
	var cases []safemsgCase
	for line := 2; sc.Scan(); line++ {
		var c safemsgCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			tb.Fatalf("%s line %d: %v", safemsgGolden, line, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	if len(cases) != head.Meta.Cases {
		tb.Fatalf("%s: %d cases, header says %d", safemsgGolden, len(cases), head.Meta.Cases)
	}
	return *head.Meta, cases
}

// goldenWant is what safeText must return for c: JavaScript's output, or,
// where JavaScript kept a lone high surrogate, that output without it.
func goldenWant(t *testing.T, c safemsgCase) (want string, deviation bool) {
	if c.JSLoneHigh == "" {
		return c.Out, false
	}
	hi, err := strconv.ParseUint(c.JSLoneHigh, 16, 16)
	if err != nil || hi < 0xd800 || hi > 0xdbff {
		t.Fatalf("case %q: jsLoneHigh %q is not a high surrogate", c.In, c.JSLoneHigh)
	}
	if n := len(utf16.Encode([]rune(c.Out))); n != maxSafeErrorLength-1 {
		t.Fatalf("case %q: jsLoneHigh set but out is %d units, not %d", c.In, n, maxSafeErrorLength-1)
	}
	return c.Out, true
}

func TestSafeTextGolden(t *testing.T) {
	meta, cases := loadSafemsgGolden(t)
	if len(cases) < 10000 {
		t.Fatalf("%d golden cases, want at least 10000", len(cases))
	}
	diffs, deviations := 0, 0
	for _, c := range cases {
		want, dev := goldenWant(t, c)
		if dev {
			deviations++
		}
		// The reference model FuzzSafeText trusts must agree too.
		for _, impl := range []struct {
			name string
			f    func(string) string
		}{{"safeText", safeText}, {"jsSafeText", jsSafeText}} {
			if got := impl.f(c.In); got != want {
				if diffs++; diffs <= 20 {
					t.Errorf("%s: %s(%q)\n got %q\nwant %q", c.Kind, impl.name, c.In, got, want)
				}
			}
		}
	}
	if deviations != meta.JSLoneHigh || deviations == 0 {
		t.Errorf("%d lone-high-surrogate cases, header says %d (the corpus must cover the cut)", deviations, meta.JSLoneHigh)
	}
	if diffs > 0 {
		t.Fatalf("%d differences from JavaScript over %d golden cases", diffs, len(cases))
	}
	t.Logf("%d cases from %s (node %s, Unicode %s): 0 differences in safeText and jsSafeText, %d surrogate-cut deviations applied",
		len(cases), meta.Generator, meta.Node, meta.Unicode, deviations)
}

// TestSafeTextJSClasses holds the scanners' character classes to what the
// engine that wrote the golden file matched, over every code point: \s
// against isJSSpace, and /i on each pattern character against the ASCII fold
// of hasFoldAt for a letter, equality for the separators '_' and '-' (which
// assignmentKeyword compares exactly). JavaScript without /u works on UTF-16 units, so no astral
// character may match either.
func TestSafeTextJSClasses(t *testing.T) {
	meta, _ := loadSafemsgGolden(t)
	if len(meta.Whitespace) == 0 || len(meta.Fold) == 0 {
		t.Fatal("golden header lacks the whitespace or fold tables")
	}
	check := func(name string, matches func(r rune) bool, want []rune) {
		var got []rune
		for r := rune(0); r <= utf8.MaxRune; r++ {
			if (r < 0xd800 || r > 0xdfff) && matches(r) {
				got = append(got, r)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: Go matches %U, JavaScript %U", name, got, want)
		}
	}
	check(`\s`, isJSSpace, meta.Whitespace)
	for c, want := range meta.Fold {
		lower := strings.ToLower(c)
		letter := len(lower) == 1 && lower[0] >= 'a' && lower[0] <= 'z'
		check("/"+c+"/i", func(r rune) bool {
			if !letter {
				return string(r) == c
			}
			s := string(r)
			return len(s) == 1 && hasFoldAt(s, 0, lower)
		}, want)
	}
}

// TestSafeTextGoldenCatchesRE2 shows the golden file can fail: the same
// expression text under RE2's own \s and (?i), as this package had it before
// issue 11, disagrees with JavaScript on part of the corpus.
func TestSafeTextGoldenCatchesRE2(t *testing.T) {
	_, cases := loadSafemsgGolden(t)
	assign := regexp.MustCompile(`(?i)\b(authorization|token|api[_-]?key|password|secret|cookie)=([^\s&]+)`)
	bearer := regexp.MustCompile(`(?i)\bBearer\s+[^\s,;]+`)
	re2Text := func(s string) string {
		s = safeTextControlsOnly(s)
		s = assign.ReplaceAllString(s, "${1}=[REDACTED]")
		s = bearer.ReplaceAllString(s, "Bearer [REDACTED]")
		return truncateUTF16(s, maxSafeErrorLength)
	}
	diffs := 0
	for _, c := range cases {
		if re2Text(c.In) != c.Out {
			diffs++
		}
	}
	if diffs == 0 {
		t.Fatal("RE2's reading of the expressions agrees with JavaScript on every golden case: the corpus misses the difference")
	}
	t.Logf("RE2's reading differs from JavaScript on %d of %d golden cases", diffs, len(cases))
}

// safeTextControlsOnly is safeText's first step alone: control characters
// to spaces.
func safeTextControlsOnly(s string) string {
	r := []rune(s)
	for i, c := range r {
		if c < 0x20 || c == 0x7f {
			r[i] = ' '
		}
	}
	return string(r)
}
