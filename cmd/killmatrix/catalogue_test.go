package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The catalogue text of these tests uses "»" for a tab so that the
// indentation is visible; tabs() turns it back.
func tabs(s string) string { return strings.ReplaceAll(s, "»", "\t") }

func TestParseCatalogue(t *testing.T) {
	src := tabs(`# header comment

mutant off-by-one
file workspace/syncdriver.go
desc loop one past the budget
--- original
»for i < n {
--- replacement
»for i <= n {
--- end

# between mutants
mutant drop-lines
file scheduler/sqlitedb/sqlitedb.go
desc delete two lines
equivalent nobody reads them
--- original
»a()

»b()
--- replacement
--- end
`)
	got, err := parseCatalogue("cat.txt", strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Mutant{
		{Name: "off-by-one", File: "workspace/syncdriver.go", Desc: "loop one past the budget",
			Original: []string{"\tfor i < n {"}, Replacement: []string{"\tfor i <= n {"}, Line: 3},
		{Name: "drop-lines", File: "scheduler/sqlitedb/sqlitedb.go", Desc: "delete two lines", Equivalent: "nobody reads them",
			Original: []string{"\ta()", "", "\tb()"}, Line: 13},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("parse (-want +got):\n%s", d)
	}
}

func TestParseCatalogueErrors(t *testing.T) {
	ok := "mutant m\nfile workspace/a.go\ndesc d\n--- original\nx\n--- replacement\ny\n--- end\n"
	for _, tc := range []struct{ name, src, want string }{
		{"stray line", "hello\n", `cat.txt:1: want "mutant NAME"`},
		{"bad name", "mutant Bad_Name\n", `cat.txt:1: mutant name "Bad_Name"`},
		{"duplicate", ok + ok, "cat.txt:9: mutant m already defined at line 1"},
		{"unknown key", "mutant m\nfile workspace/a.go\nwhy d\n", `cat.txt:3: mutant m: unknown key "why"`},
		{"key twice", "mutant m\ndesc a\ndesc b\n", "cat.txt:3: mutant m: desc given twice"},
		{"no desc", "mutant m\nfile workspace/a.go\n--- original\n", "cat.txt:3: mutant m: no desc"},
		{"test file", "mutant m\nfile workspace/a_test.go\ndesc d\n--- original\n", "want a non-test .go file"},
		{"other package", "mutant m\nfile sim/host.go\ndesc d\n--- original\n", "want a file directly in one of"},
		{"unclean path", "mutant m\nfile workspace/../sim/a.go\ndesc d\n--- original\n", "want a clean path"},
		{"empty original", "mutant m\nfile workspace/a.go\ndesc d\n--- original\n\n--- replacement\n", "cat.txt:6: mutant m: empty original snippet"},
		{"no change", "mutant m\nfile workspace/a.go\ndesc d\n--- original\nx\n--- replacement\nx\n--- end\n", "replacement equals the original"},
		{"wrong marker", "mutant m\nfile workspace/a.go\ndesc d\n--- original\nx\n--- end\n", `cat.txt:6: mutant m: want "--- replacement"`},
		{"unterminated", "mutant m\nfile workspace/a.go\ndesc d\n--- original\nx\n--- replacement\ny\n", "cat.txt:7: mutant m: catalogue ends inside it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseCatalogue("cat.txt", strings.NewReader(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestApplyMutant(t *testing.T) {
	src := tabs("package p\n\nfunc f() {\n»for i < n {\n»»g()\n»}\n}\n")
	m := Mutant{Name: "m", File: "workspace/p.go", Original: []string{"\tfor i < n {"}, Replacement: []string{"\tfor i <= n {"}}
	got, err := applyMutant([]byte(src), m)
	if err != nil {
		t.Fatal(err)
	}
	if want := tabs("package p\n\nfunc f() {\n»for i <= n {\n»»g()\n»}\n}\n"); string(got) != want {
		t.Errorf("applied:\n%s\nwant:\n%s", got, want)
	}

	m.Replacement = nil // deletion takes the lines and their newlines
	m.Original = []string{"\t\tg()"}
	got, err = applyMutant([]byte(src), m)
	if err != nil {
		t.Fatal(err)
	}
	if want := tabs("package p\n\nfunc f() {\n»for i < n {\n»}\n}\n"); string(got) != want {
		t.Errorf("deleted:\n%s\nwant:\n%s", got, want)
	}
}

// The snippet check is what keeps the catalogue from rotting: a snippet
// that is gone, matches only part of a line, or matches twice is refused.
func TestApplyMutantRefusesInexactSnippets(t *testing.T) {
	src := tabs("package p\n\nfunc f() {\n»x := 1\n»y := 1\n»x := 1\n»zx := 1\n}\n")
	for _, tc := range []struct {
		name     string
		original []string
		want     string
	}{
		{"gone", []string{"\tw := 1"}, "original snippet not found"},
		{"indentation differs", []string{"x := 1"}, "original snippet not found"},
		{"twice", []string{"\tx := 1"}, "matches 2 times in workspace/p.go (lines 4, 6)"},
		{"part of a line", []string{"x := 1", "\ty := 1"}, "original snippet not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := Mutant{Name: "m", File: "workspace/p.go", Original: tc.original, Replacement: []string{"\tchanged()"}, Line: 7}
			_, err := applyMutant([]byte(src), m)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "mutant m (catalogue line 7)") {
				t.Fatalf("error %v, want it to name the mutant and contain %q", err, tc.want)
			}
		})
	}
	// A unique multi-line snippet inside the same file applies.
	m := Mutant{Name: "m", File: "workspace/p.go", Original: []string{"\tx := 1", "\ty := 1"}, Replacement: []string{"\tx := 2"}}
	if _, err := applyMutant([]byte(src), m); err != nil {
		t.Fatalf("unique two-line snippet: %v", err)
	}
}

func TestMutateRefusesUnparsableResult(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "workspace"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "workspace", "p.go"), []byte("package p\n\nfunc f() {\n\tg()\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := Mutant{Name: "m", File: "workspace/p.go", Original: []string{"\tg()"}, Replacement: []string{"\tg(("}}
	if _, err := mutate(root, m); err == nil || !strings.Contains(err.Error(), "does not parse") {
		t.Fatalf("error %v, want a parse failure", err)
	}
}

// TestCatalogueMatchesTree is the catalogue's guard: every mutant applies
// exactly once to today's code and every production file with code has a
// mutant. It builds nothing and runs no sweep.
func TestCatalogueMatchesTree(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cat, err := loadCatalogue(filepath.Join(root, filepath.FromSlash(defaultCatalogue)))
	if err != nil {
		t.Fatal(err)
	}
	if len(cat) < 40 {
		t.Errorf("catalogue holds %d mutants, want at least 40", len(cat))
	}
	for _, err := range checkCatalogue(root, cat) {
		t.Error(err)
	}
	for _, m := range cat {
		if m.Equivalent != "" && len(m.Equivalent) < 20 {
			t.Errorf("mutant %s: equivalent needs a reason, got %q", m.Name, m.Equivalent)
		}
	}
}

// TestMutableFilesSkipsDeclarationOnlyFiles pins the coverage rule on the
// tree: interface-only files are exempt, files with code are not.
func TestMutableFilesSkipsDeclarationOnlyFiles(t *testing.T) {
	files, err := mutableFiles(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	has := map[string]bool{}
	for _, f := range files {
		has[f] = true
	}
	for f, want := range map[string]bool{
		"workspace/syncdriver.go":        true,
		"scheduler/alarm.go":             true,
		"scheduler/sqlitedb/sqlitedb.go": true,
		"workspace/doc.go":               false,
		"workspace/park.go":              false, // interfaces only
		"scheduler/scheduler.go":         false, // interfaces only
		"workspace/exec_test.go":         false,
	} {
		if has[f] != want {
			t.Errorf("mutableFiles has %s = %t, want %t", f, has[f], want)
		}
	}
}
