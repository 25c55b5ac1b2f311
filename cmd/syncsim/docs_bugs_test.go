package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/scenarios"
)

// catalogueRowRe is a row of docs/planted-bugs.md's catalogue table.
var catalogueRowRe = regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\| ")

// docs/planted-bugs.md's catalogue names every planted bug, in the
// catalogue's order, and no other: a bug added or renamed fails here until
// the page says what it stands for.
func TestPlantedBugsPageListsTheCatalogue(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "docs", "planted-bugs.md"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	start := strings.Index(page, "## The catalogue")
	end := strings.Index(page, "## The hunt")
	if start < 0 || end < start {
		t.Fatal(`docs/planted-bugs.md has no "## The catalogue" section before "## The hunt"`)
	}
	var listed []string
	for _, m := range catalogueRowRe.FindAllStringSubmatch(page[start:end], -1) {
		listed = append(listed, m[1])
	}
	var want []string
	for _, bug := range scenarios.Bugs {
		want = append(want, bug.Name)
	}
	if strings.Join(listed, " ") != strings.Join(want, " ") {
		t.Errorf("docs/planted-bugs.md's catalogue lists\n  %s\nwant syncsim bugs' order\n  %s", strings.Join(listed, " "), strings.Join(want, " "))
	}
}
