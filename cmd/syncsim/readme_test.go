package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoRoot is the module root, two levels above this package.
const repoRoot = "../.."

// verbatimRe finds README code blocks marked as copies of compiled code:
// a `<!-- verbatim: PATH -->` line right before a ```go fence.
var verbatimRe = regexp.MustCompile("(?s)<!-- verbatim: (\\S+) -->\n```go\n(.*?)```")

// The README's Go snippets are compiled and run: each marked block is a
// whole function of a test file, verbatim (so it is also gofmt-clean).
func TestReadmeSnippetsAreCompiledCode(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := verbatimRe.FindAllStringSubmatch(string(readme), -1)
	if len(blocks) < 2 {
		t.Fatalf("README has %d verbatim blocks, want the two plug-in snippets", len(blocks))
	}
	for _, b := range blocks {
		path, code := b[1], b[2]
		src, err := os.ReadFile(filepath.Join(repoRoot, path))
		if err != nil {
			t.Errorf("README copies %s: %v", path, err)
			continue
		}
		if !strings.HasPrefix(code, "func ") || !strings.Contains(string(src), "\n"+code) {
			t.Errorf("README's block from %s is not a function of it verbatim:\n%s", path, code)
		}
	}
}
