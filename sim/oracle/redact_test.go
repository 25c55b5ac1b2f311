package oracle

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// safemsgGolden holds the outputs JavaScript wrote running the original
// safeErrorMessage (node workspace/testdata/safemsg/gen.mjs): the
// workspace's tests hold its scanners to it, and this one the harness's
// own reading of the rule. Where JavaScript kept a lone high surrogate at
// the cut the file's output leaves it off, which is CutUTF16's rule too.
const safemsgGolden = "../../workspace/testdata/safemsg/golden.jsonl"

func TestSafeTextMatchesJavaScript(t *testing.T) {
	f, err := os.Open(safemsgGolden)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	sc.Scan() // the meta line
	cases, diffs := 0, 0
	for sc.Scan() {
		var c struct {
			Kind string `json:"k"`
			In   string `json:"in"`
			Out  string `json:"out"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cases++
		if got := SafeText(c.In); got != c.Out {
			if diffs++; diffs <= 20 {
				t.Errorf("%s: SafeText(%q)\n got %q\nwant %q", c.Kind, c.In, got, c.Out)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cases < 10000 {
		t.Fatalf("%d golden cases, want at least 10000", cases)
	}
	if diffs > 0 {
		t.Fatalf("%d differences from JavaScript over %d cases", diffs, cases)
	}
}

// TestCutUTF16 counts UTF-16 code units, not bytes or runes, and drops an
// astral character across the cut whole.
func TestCutUTF16(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 2, "ab"},
		{"abc", 5, "abc"},
		{"éé", 1, "é"},           // two bytes, one unit
		{"a\U0001F600b", 2, "a"}, // the emoji needs units 2 and 3
		{"a\U0001F600b", 3, "a\U0001F600"},
		{"", 0, ""},
	} {
		if got := CutUTF16(tc.in, tc.n); got != tc.want {
			t.Errorf("CutUTF16(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
