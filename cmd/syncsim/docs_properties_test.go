package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/sim"
)

// propertiesTableRe is the generated-to-be part of docs/properties.md: the
// table between its markers, one row per property.
var propertiesTableRe = regexp.MustCompile("(?s)<!-- properties:begin -->\n(.*?)<!-- properties:end -->")

// docs/properties.md lists every property the host checks, each once and
// nothing else, in the table a registry of checkers can later write.
func TestPropertiesPageListsEveryProperty(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "docs", "properties.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := propertiesTableRe.FindStringSubmatch(string(b))
	if m == nil {
		t.Fatal("docs/properties.md has no table between <!-- properties:begin --> and <!-- properties:end -->")
	}
	lines := strings.Split(strings.TrimSpace(m[1]), "\n")
	if lines[0] != "| property | SPEC | judged from | what it checks |" {
		t.Fatalf("the table's header is %q", lines[0])
	}
	var listed []string
	for _, row := range lines[2:] {
		cells := strings.Split(row, " | ")
		if len(cells) != 4 {
			t.Errorf("row %q does not have four cells", row)
			continue
		}
		listed = append(listed, strings.Trim(cells[0], "| `"))
	}
	for _, p := range sim.Properties {
		if n := countOf(listed, p); n != 1 {
			t.Errorf("property %s is in the table %d times, want once", p, n)
		}
	}
	for _, p := range listed {
		if !slices.Contains(sim.Properties, p) {
			t.Errorf("the table lists %s, which the host does not check", p)
		}
	}
}

func countOf(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}
