package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// mutatedDirs are the production packages the matrix mutates: the system
// under test (workspace, scheduler) and the SQLite settings both durable
// stores open with. scheduler/schedulertest is a test suite, not
// production code, and is left out.
var mutatedDirs = []string{"workspace", "scheduler", "scheduler/sqlitedb"}

func mutatedDir(dir string) bool { return slices.Contains(mutatedDirs, dir) }

// applyMutant returns src with m's original lines replaced. The original
// must occur exactly once, on whole lines: a snippet that no longer
// matches, or matches twice, is an error naming the mutant, so the
// catalogue cannot rot silently when the code changes.
func applyMutant(src []byte, m Mutant) ([]byte, error) {
	text := string(src)
	needle := strings.Join(m.Original, "\n") + "\n"
	var at []int
	for i := 0; i <= len(text)-len(needle); {
		j := strings.Index(text[i:], needle)
		if j < 0 {
			break
		}
		j += i
		if j == 0 || text[j-1] == '\n' {
			at = append(at, j)
		}
		i = j + 1
	}
	switch len(at) {
	case 0:
		return nil, fmt.Errorf("mutant %s (catalogue line %d): original snippet not found in %s", m.Name, m.Line, m.File)
	case 1:
	default:
		lines := make([]string, len(at))
		for i, a := range at {
			lines[i] = fmt.Sprint(strings.Count(text[:a], "\n") + 1)
		}
		return nil, fmt.Errorf("mutant %s (catalogue line %d): original snippet matches %d times in %s (lines %s); make it unique",
			m.Name, m.Line, len(at), m.File, strings.Join(lines, ", "))
	}
	repl := ""
	if len(m.Replacement) > 0 {
		repl = strings.Join(m.Replacement, "\n") + "\n"
	}
	return []byte(text[:at[0]] + repl + text[at[0]+len(needle):]), nil
}

// mutate reads m's file under root, applies m and checks that the result
// is still Go syntax (a mutant that does not even parse is a catalogue
// error, not a kill).
func mutate(root string, m Mutant) ([]byte, error) {
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(m.File)))
	if err != nil {
		return nil, fmt.Errorf("mutant %s (catalogue line %d): %w", m.Name, m.Line, err)
	}
	out, err := applyMutant(src, m)
	if err != nil {
		return nil, err
	}
	if _, err := parser.ParseFile(token.NewFileSet(), m.File, out, parser.SkipObjectResolution); err != nil {
		return nil, fmt.Errorf("mutant %s (catalogue line %d): mutated file does not parse: %w", m.Name, m.Line, err)
	}
	return out, nil
}

// checkCatalogue applies every mutant to the tree under root without
// building anything, and checks that every mutable production file has at
// least one mutant. It returns every problem, not only the first.
func checkCatalogue(root string, cat []Mutant) []error {
	var errs []error
	for _, m := range cat {
		if _, err := mutate(root, m); err != nil {
			errs = append(errs, err)
		}
	}
	files, err := mutableFiles(root)
	if err != nil {
		return append(errs, err)
	}
	covered := map[string]bool{}
	for _, m := range cat {
		covered[m.File] = true
	}
	for _, f := range files {
		if !covered[f] {
			errs = append(errs, fmt.Errorf("no mutant for %s: every production file with code needs at least one", f))
		}
	}
	return errs
}

// mutableFiles lists the non-test Go files of mutatedDirs that hold code a
// mutant can change: a function body, or a var or const declaration.
// Files of type declarations only (interfaces, a struct) and doc.go have
// nothing to mutate without breaking the build.
func mutableFiles(root string) ([]string, error) {
	var out []string
	for _, dir := range mutatedDirs {
		ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
		if err != nil {
			return nil, err
		}
		for _, e := range ents {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			rel := path.Join(dir, name)
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, filepath.FromSlash(rel)), nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, err
			}
			if hasCode(f) {
				out = append(out, rel)
			}
		}
	}
	return out, nil
}

func hasCode(f *ast.File) bool {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Body != nil {
				return true
			}
		case *ast.GenDecl:
			if d.Tok == token.VAR || d.Tok == token.CONST {
				return true
			}
		}
	}
	return false
}
