package scenarios

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is the import path of this module's root.
const module = "github.com/syncsim/syncsim"

// layoutRules is DESIGN.md's layout table as what each package must never
// reach, directly or through another: the production code never the
// harness, the model never the code it judges, the driver never the model
// nor the judge, the judge never the driver. A package path rule covers
// its subpackages too ("sim" does not cover "sim/oracle": listed apart).
var layoutRules = []struct {
	pkg   string   // a package, with its subpackages unless listed below
	never []string // packages (with subpackages) it must not depend on
}{
	{"scheduler", []string{"workspace", "faults", "model", "sim", "scenarios", "cmd"}},
	{"workspace", []string{"faults", "model", "sim", "scenarios", "cmd"}},
	{"faults", []string{"model", "sim", "scenarios", "cmd"}},
	{"model", []string{"workspace", "faults", "sim", "scenarios", "cmd"}},
	{"sim", []string{"model", "sim/oracle", "scenarios", "cmd"}},
	{"sim/oracle", []string{"sim!", "scenarios", "cmd"}},
	{"scenarios", []string{"cmd"}},
}

// TestLayout holds every package of the module to layoutRules, over the
// imports of its non-test files and theirs: a forbidden dependency is
// reported with the chain that reaches it.
func TestLayout(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	graph := importGraph(t, root)
	if len(graph["sim"]) == 0 || len(graph["sim/oracle"]) == 0 {
		t.Fatalf("expected the module's packages under %s, got %d packages", root, len(graph))
	}
	for _, rule := range layoutRules {
		for pkg := range graph {
			if !covers(rule.pkg, pkg) {
				continue
			}
			for _, chain := range reach(graph, pkg) {
				dep := chain[len(chain)-1]
				for _, never := range rule.never {
					if matches(never, dep) {
						t.Errorf("%s depends on %s (%s): DESIGN.md's layout forbids it", pkg, dep, strings.Join(chain, " -> "))
					}
				}
			}
		}
	}
}

// covers reports whether rule's package covers pkg: itself, or a
// subpackage no other rule names.
func covers(rulePkg, pkg string) bool {
	if pkg == rulePkg {
		return true
	}
	if !strings.HasPrefix(pkg, rulePkg+"/") {
		return false
	}
	for _, r := range layoutRules {
		if len(r.pkg) > len(rulePkg) && (pkg == r.pkg || strings.HasPrefix(pkg, r.pkg+"/")) {
			return false
		}
	}
	return true
}

// matches reports whether dep is never or below it; "p!" is p alone.
func matches(never, dep string) bool {
	if exact, ok := strings.CutSuffix(never, "!"); ok {
		return dep == exact
	}
	return dep == never || strings.HasPrefix(dep, never+"/")
}

// importGraph maps every package of the module (by its path below the
// module) to the module packages its non-test files import.
func importGraph(t *testing.T, root string) map[string][]string {
	t.Helper()
	graph := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		for _, spec := range f.Imports {
			imp, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return err
			}
			if dep, ok := strings.CutPrefix(imp, module+"/"); ok && !slices.Contains(graph[pkg], dep) {
				graph[pkg] = append(graph[pkg], dep)
			}
		}
		if _, ok := graph[pkg]; !ok {
			graph[pkg] = nil
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range graph {
		slices.Sort(graph[pkg])
	}
	return graph
}

// reach returns, for every package pkg depends on, the first import chain
// (breadth first) from pkg to it.
func reach(graph map[string][]string, pkg string) [][]string {
	seen := map[string]bool{pkg: true}
	queue := [][]string{{pkg}}
	var out [][]string
	for len(queue) > 0 {
		chain := queue[0]
		queue = queue[1:]
		for _, dep := range graph[chain[len(chain)-1]] {
			if seen[dep] {
				continue
			}
			seen[dep] = true
			next := append(slices.Clone(chain), dep)
			out = append(out, next)
			queue = append(queue, next)
		}
	}
	return out
}
