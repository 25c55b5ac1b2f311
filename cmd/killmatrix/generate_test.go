package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestGenerateAppliesCleanly: a generated catalogue over this module
// parses, every mutant applies exactly once and parses, every mutable file
// has one, and the same seed gives the same catalogue (another, another).
func TestGenerateAppliesCleanly(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	gen := func(seed uint64) string {
		var b bytes.Buffer
		if err := generate(root, 80, seed, &b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	text := gen(1)
	cat, err := parseCatalogue("generated", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(cat) != 80 {
		t.Fatalf("got %d mutants, want 80", len(cat))
	}
	if errs := checkCatalogue(root, cat); len(errs) > 0 {
		t.Fatalf("generated catalogue does not apply: %v", errs)
	}
	for _, m := range cat {
		if strings.Join(m.Original, "\n") == strings.Join(m.Replacement, "\n") {
			t.Fatalf("mutant %s changes nothing", m.Name)
		}
	}
	if gen(1) != text {
		t.Fatal("the same seed gave another catalogue")
	}
	if gen(2) == text {
		t.Fatal("another seed gave the same catalogue")
	}
}

// TestCandidatesSkipStringsAndComments: operators inside string literals
// and comments are never drawn, nor lines that occur twice, nor a + that
// may join strings.
func TestCandidatesSkipStringsAndComments(t *testing.T) {
	src := []byte("package p\n\nfunc f(a, b int, s string) bool {\n\t_ = \"a < b && c\" // x == y\n\t_ = s + \"x\"\n\treturn a < b\n\treturn a < b\n}\n\nfunc g(n int) int { return n + 1 }\n")
	got := map[string]bool{}
	for _, c := range candidates("p.go", src) {
		got[c.line[:c.col]+"|"+c.repl] = true
	}
	want := map[string]bool{"func g(n int) int { return n |-": true}
	for k := range got {
		if !want[k] {
			t.Errorf("unexpected candidate %q", k)
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("missing candidate %q", k)
		}
	}
}
