package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The pages a reader is sent to: the README and every page under docs/.
// SPEC.md is among them (its links, paths and test names are checked too);
// its Go block is the original's interface, not a snippet of ours.
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{filepath.Join(repoRoot, "README.md")}, pages...)
}

// Nothing a page cites goes stale silently: every relative link (and its
// #anchor), every repository path and file name in a code span, every
// test, example, benchmark and fuzz function, and every exported name
// written as pkg.Name of one of this module's packages must exist. A
// rename that leaves a page behind fails here, naming the page and the
// citation.
func TestDocsCitationsExist(t *testing.T) {
	idx := newRepoIndex(t)
	cited := 0
	for _, page := range docPages(t) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(repoRoot, page)
		for _, problem := range idx.check(rel, string(b), &cited) {
			t.Errorf("%s: %s", rel, problem)
		}
	}
	// A scan that finds nothing passes everything: hold it to a floor.
	if cited < 200 {
		t.Errorf("checked %d citations in README.md and docs/; the scan is broken", cited)
	}
}

// The check itself fails on what a stale page would cite.
func TestDocsCitationsCatchMissingNames(t *testing.T) {
	idx := newRepoIndex(t)
	page := strings.Join([]string{
		"[gone](docs/no-such-page.md) and [bad anchor](docs/SPEC.md#no-such-heading)",
		"`sim/no_such_file.go`, `spec-no-such-scenario.txt`, `sim/host_nosuch*.go`",
		"TestNoSuchTest, ExampleNoSuchExample, TestNoSuchPrefix...",
		"`scenarios.NoSuchFunc`, `sim.Host.NoSuchMethod`",
	}, "\n")
	var n int
	problems := idx.check("README.md", page, &n)
	if len(problems) != 10 {
		t.Fatalf("want 10 problems, got %d:\n%s", len(problems), strings.Join(problems, "\n"))
	}
	ok := strings.Join([]string{
		"[spec](docs/SPEC.md#11-invariants-checked-by-the-simulator-after-every-step)",
		"`scheduler/alarm.go`, `spec-r07-backoff-exhaustion.txt`, `workspace/*.go`, `scenarios/testdata/corpus/`",
		"TestDocsCitationsExist, ExampleSweep, like testing/fstest.TestFS, the TestQuirk... tests, TestS1…",
		"`scenarios.Check`, `scenarios.SuiteOptions.NewStore`, `scheduler.Intent.Clone`, `workspace.Store`, `faults.ErrInjected`",
	}, "\n")
	if problems := idx.check("README.md", ok, &n); len(problems) != 0 {
		t.Errorf("false alarms:\n%s", strings.Join(problems, "\n"))
	}
}

// repoIndex is what the pages may cite: files, test functions, and the
// exported names of the module's packages.
type repoIndex struct {
	top   map[string]bool            // top-level entries of the repository
	bases map[string]bool            // base names of every file
	tests map[string]bool            // Test*, Example*, Benchmark*, Fuzz* functions
	names map[string]map[string]bool // package name -> "Name" and "Type.Member"
}

var testFuncRe = regexp.MustCompile(`(?m)^func ((?:Test|Example|Benchmark|Fuzz)\w*)\(`)

func newRepoIndex(t *testing.T) *repoIndex {
	t.Helper()
	idx := &repoIndex{top: map[string]bool{}, bases: map[string]bool{}, tests: map[string]bool{}, names: map[string]map[string]bool{}}
	entries, err := os.ReadDir(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		idx.top[e.Name()] = true
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(repoRoot, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		idx.bases[d.Name()] = true
		if !strings.HasSuffix(path, ".go") || strings.Contains(path, "testdata") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, "_test.go") {
			for _, m := range testFuncRe.FindAllStringSubmatch(string(src), -1) {
				idx.tests[m[1]] = true
			}
			return nil
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		idx.addDecls(f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return idx
}

// addDecls records a file's exported top-level names, methods, struct
// fields and interface methods under its package's name.
func (idx *repoIndex) addDecls(f *ast.File) {
	pkg := f.Name.Name
	if idx.names[pkg] == nil {
		idx.names[pkg] = map[string]bool{}
	}
	names := idx.names[pkg]
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names[d.Name.Name] = true
				continue
			}
			names[receiverName(d.Recv.List[0].Type)+"."+d.Name.Name] = true
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names[n.Name] = true
					}
				case *ast.TypeSpec:
					names[s.Name.Name] = true
					var fields *ast.FieldList
					switch ty := s.Type.(type) {
					case *ast.StructType:
						fields = ty.Fields
					case *ast.InterfaceType:
						fields = ty.Methods
					}
					if fields == nil {
						continue
					}
					for _, fl := range fields.List {
						for _, n := range fl.Names {
							names[s.Name.Name+"."+n.Name] = true
						}
					}
				}
			}
		}
	}
}

func receiverName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiverName(e.X)
	case *ast.IndexExpr:
		return receiverName(e.X)
	case *ast.IndexListExpr:
		return receiverName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}

var (
	// linkRe finds a markdown link's target; links to the web and to
	// places on the same page are not files.
	linkRe = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	// codeSpanRe finds inline code spans (fenced blocks are cut first).
	codeSpanRe = regexp.MustCompile("`([^`\n]+)`")
	fenceRe    = regexp.MustCompile("(?ms)^```.*?^```")
	// pathRe is a code span that reads as a file or directory path.
	pathRe = regexp.MustCompile(`^[A-Za-z0-9_.*/-]+$`)
	// fileNameRe is a bare file name with an extension worth checking.
	fileNameRe = regexp.MustCompile(`^[A-Za-z0-9_.-]+\.(go|txt|md|yml|mjs|golden)$`)
	// citedTestRe finds a test function cited in prose or code; one
	// qualified by a package (testing/fstest.TestFS) is not ours, and one
	// followed by "..." or "…" is a prefix (TestQuirk...: the quirk tests).
	citedTestRe = regexp.MustCompile(`(^|[^.\w])((?:Test|Example|Benchmark|Fuzz)[A-Z0-9_]\w*)(\.\.\.|…)?`)
	// qualifiedRe is pkg.Name or pkg.Type.Member, possibly called.
	qualifiedRe = regexp.MustCompile(`^([a-z]+)\.([A-Z]\w*)(?:\.([A-Z]\w*))?(?:\(.*\))?$`)
)

// check returns what page (its path relative to the root) cites that
// does not exist, and counts what it checked into *n.
func (idx *repoIndex) check(page, text string, n *int) []string {
	var problems []string
	dir := filepath.Dir(page)
	for _, m := range linkRe.FindAllStringSubmatch(text, -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		*n++
		file, anchor, _ := strings.Cut(target, "#")
		path := page
		if file != "" {
			path = filepath.Join(dir, file)
		}
		if _, err := os.Stat(filepath.Join(repoRoot, path)); err != nil {
			problems = append(problems, "link to a missing file: "+target)
			continue
		}
		if anchor != "" && !slices.Contains(headingAnchors(filepath.Join(repoRoot, path), page, text), anchor) {
			problems = append(problems, "link to a missing heading: "+target)
		}
	}
	prose := fenceRe.ReplaceAllString(text, "")
	for _, m := range codeSpanRe.FindAllStringSubmatch(prose, -1) {
		span := strings.TrimSpace(m[1])
		if p := idx.checkSpan(span); p != "" {
			problems = append(problems, p)
		}
		if idx.spanIsCitation(span) {
			*n++
		}
	}
	for _, m := range citedTestRe.FindAllStringSubmatch(text, -1) {
		*n++
		if m[3] != "" {
			if !idx.testPrefix(m[2]) {
				problems = append(problems, "no test function begins "+m[2])
			}
		} else if !idx.tests[m[2]] {
			problems = append(problems, "no test function "+m[2])
		}
	}
	return problems
}

// testPrefix says whether some test function's name begins with prefix.
func (idx *repoIndex) testPrefix(prefix string) bool {
	for name := range idx.tests {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// spanIsCitation says whether checkSpan holds span to something.
func (idx *repoIndex) spanIsCitation(span string) bool {
	if m := qualifiedRe.FindStringSubmatch(span); m != nil && idx.names[m[1]] != nil {
		return true
	}
	first, _, _ := strings.Cut(span, "/")
	return pathRe.MatchString(span) && (idx.top[first] && strings.Contains(span, "/") || fileNameRe.MatchString(span))
}

// checkSpan holds one code span to the repository: a path from the root
// (globs allowed), a bare file name, or an exported pkg.Name.
func (idx *repoIndex) checkSpan(span string) string {
	if m := qualifiedRe.FindStringSubmatch(span); m != nil {
		names := idx.names[m[1]]
		if names == nil {
			return "" // not one of ours: os.Exit, errors.Is, ...
		}
		name := m[2]
		if m[3] != "" {
			name += "." + m[3]
		}
		if !names[name] {
			return "no exported name " + m[1] + "." + name
		}
		return ""
	}
	if !pathRe.MatchString(span) {
		return ""
	}
	first, _, _ := strings.Cut(span, "/")
	switch {
	case idx.top[first] && strings.Contains(span, "/"):
		matches, _ := filepath.Glob(filepath.Join(repoRoot, strings.TrimSuffix(span, "/")))
		if len(matches) == 0 {
			return "no such path " + span
		}
	case fileNameRe.MatchString(span) && !strings.Contains(span, "*"):
		if !idx.bases[span] {
			return "no file named " + span
		}
	}
	return ""
}

// headingAnchors lists the anchors GitHub gives the headings of a
// markdown file (or of the page being checked, for its own #links).
func headingAnchors(path, page, text string) []string {
	if filepath.Clean(path) != filepath.Join(repoRoot, page) {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		text = string(b)
	}
	var anchors []string
	for _, line := range strings.Split(fenceRe.ReplaceAllString(text, ""), "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
		var b strings.Builder
		for _, r := range h {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
				b.WriteRune(r)
			}
		}
		anchors = append(anchors, b.String())
	}
	return anchors
}
