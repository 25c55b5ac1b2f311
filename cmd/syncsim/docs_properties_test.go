package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/sim/oracle"
)

var rewriteDocs = flag.Bool("docs.rewrite", false, "rewrite generated tables in docs/ (the properties table) from the code")

// propertiesTableRe is docs/properties.md's generated part: the table
// between its markers, one row per property of oracle.Registry.
var propertiesTableRe = regexp.MustCompile("(?s)<!-- properties:begin -->\n(.*?)<!-- properties:end -->")

// propertiesTable renders oracle.Registry as the page's table, in
// registry order: name, SPEC section, where the expectation comes from,
// what it checks.
func propertiesTable() string {
	var b strings.Builder
	b.WriteString("| property | SPEC | judged from | what it checks |\n|---|---|---|---|\n")
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	for _, p := range oracle.Registry {
		spec := p.Spec
		if spec == "" {
			spec = "—"
		}
		b.WriteString("| `" + p.Name + "` | " + cell(spec) + " | " + cell(string(p.Basis)) + " | " + cell(p.What) + " |\n")
	}
	return b.String()
}

// docs/properties.md's table is the registry's, row for row: every
// property once, with the SPEC section, basis and description the
// registry gives. go test ./cmd/syncsim -run TestPropertiesPage
// -docs.rewrite writes it after the registry changed.
func TestPropertiesPageIsTheRegistry(t *testing.T) {
	path := filepath.Join(repoRoot, "docs", "properties.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := propertiesTableRe.FindSubmatchIndex(b)
	if m == nil {
		t.Fatal("docs/properties.md has no table between <!-- properties:begin --> and <!-- properties:end -->")
	}
	want := propertiesTable()
	if got := string(b[m[2]:m[3]]); got != want {
		if *rewriteDocs {
			out := string(b[:m[2]]) + want + string(b[m[3]:])
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("docs/properties.md's table is not oracle.Registry's; rerun with -docs.rewrite. Rows that differ:\n%s",
			rowDiff(got, want))
	}
}

// rowDiff lists the rows of got missing from want (-) and of want missing
// from got (+).
func rowDiff(got, want string) string {
	in := func(rows, row string) bool { return strings.Contains("\n"+rows, "\n"+row+"\n") }
	var d []string
	for _, row := range strings.Split(strings.TrimSpace(got), "\n") {
		if !in(want, row) {
			d = append(d, "- "+row)
		}
	}
	for _, row := range strings.Split(strings.TrimSpace(want), "\n") {
		if !in(got, row) {
			d = append(d, "+ "+row)
		}
	}
	return strings.Join(d, "\n")
}
