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

// verbatimRe finds code blocks marked as copies of compiled code: a
// `<!-- verbatim: PATH -->` line right before a ```go fence.
var verbatimRe = regexp.MustCompile("(?s)<!-- verbatim: (\\S+) -->\n```go\n(.*?)```")

// goFenceRe finds every Go block, marked or not.
var goFenceRe = regexp.MustCompile("(?m)^```go$")

// The pages' Go snippets are compiled and run: every Go block of the README
// and of docs/ (SPEC.md's is the original's interface, not ours) is marked
// as a whole function of a test file and is that function verbatim (so it
// is also gofmt-clean).
func TestDocsSnippetsAreCompiledCode(t *testing.T) {
	for _, page := range docPages(t) {
		if filepath.Base(page) == "SPEC.md" {
			continue
		}
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(repoRoot, page)
		blocks := verbatimRe.FindAllStringSubmatch(string(b), -1)
		if n := len(goFenceRe.FindAllString(string(b), -1)); n != len(blocks) {
			t.Errorf("%s has %d Go blocks, %d of them marked verbatim: every one must be", rel, n, len(blocks))
		}
		if rel == "README.md" && len(blocks) < 2 {
			t.Errorf("README has %d verbatim blocks, want the two plug-in snippets", len(blocks))
		}
		for _, b := range blocks {
			path, code := b[1], b[2]
			src, err := os.ReadFile(filepath.Join(repoRoot, path))
			if err != nil {
				t.Errorf("%s copies %s: %v", rel, path, err)
				continue
			}
			if !strings.HasPrefix(code, "func ") || !strings.Contains(string(src), "\n"+code) {
				t.Errorf("%s's block from %s is not a function of it verbatim:\n%s", rel, path, code)
			}
		}
	}
}

// maxReadmeLines keeps the README a page a newcomer reads in ten minutes;
// reference belongs under docs/.
const maxReadmeLines = 250

// The README stays short, and sends the reader to every page under docs/.
func TestReadmeIsShortAndLinksEveryPage(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(readme), "\n"); n > maxReadmeLines {
		t.Errorf("README.md has %d lines, at most %d: move reference into docs/", n, maxReadmeLines)
	}
	for _, page := range docPages(t)[1:] {
		link := "(docs/" + filepath.Base(page) + ")"
		if !strings.Contains(string(readme), link) {
			t.Errorf("README.md does not link %s", link)
		}
	}
}

// specRefRe finds a citation of the contract: "SPEC 6.3", "SPEC §4",
// "SPEC 3.3 step 1" (the step is inside the section).
var specRefRe = regexp.MustCompile(`SPEC §?(\d+(?:\.\d+)?)`)

// Every "SPEC n" cited in the code and docs names a section of
// docs/SPEC.md, the contract the README points to.
func TestSpecReferencesPointIntoDocsSpec(t *testing.T) {
	spec, err := os.ReadFile(filepath.Join(repoRoot, "docs", "SPEC.md"))
	if err != nil {
		t.Fatal(err)
	}
	sections := specSections(string(spec))
	refs := 0
	err = filepath.WalkDir(repoRoot, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || (!strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, ".md")) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range specRefRe.FindAllStringSubmatch(string(b), -1) {
			refs++
			if !sections[m[1]] {
				t.Errorf("%s cites %q, which is no section of docs/SPEC.md", path, m[0])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if refs < 100 || len(sections) < 40 {
		t.Errorf("found %d citations and %d sections; the scan is broken", refs, len(sections))
	}
	readme, _ := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if !strings.Contains(string(readme), "[`docs/SPEC.md`](docs/SPEC.md)") {
		t.Error("README does not say where SPEC references point")
	}
}

// specSections lists the citable places of the contract: "## n." and
// "### n.m" headings, and the numbered items of a section without
// subsections ("SPEC 11.6" is item 6 of section 11).
func specSections(spec string) map[string]bool {
	heading := regexp.MustCompile(`^(#{2,3}) (\d+(?:\.\d+)?)\.? `)
	item := regexp.MustCompile(`^(\d+)\. `)
	sections := map[string]bool{}
	top, inSub := "", false
	for _, line := range strings.Split(spec, "\n") {
		if m := heading.FindStringSubmatch(line); m != nil {
			sections[m[2]] = true
			if m[1] == "##" {
				top, inSub = m[2], false
			} else {
				inSub = true
			}
			continue
		}
		if m := item.FindStringSubmatch(line); m != nil && top != "" && !inSub {
			sections[top+"."+m[1]] = true
		}
	}
	return sections
}

// walkthroughRe finds the README's walkthrough block.
var walkthroughRe = regexp.MustCompile("(?s)<!-- walkthrough -->\n```sh\n(.*?)```")

// The README's walkthrough runs as written, in a fresh directory: every
// syncsim line exits as its comment says (exit 0 unless it says "exit N"),
// with <seed> and <file> taken from the first line's report; the corpus
// line names the saved file's subtest.
func TestReadmeWalkthroughRuns(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := walkthroughRe.FindStringSubmatch(string(readme))
	if m == nil {
		t.Fatal("README has no walkthrough block")
	}
	t.Chdir(t.TempDir())
	exitRe := regexp.MustCompile(`exit (\d+)`)
	seed, file := "", ""
	ran := 0
	for _, line := range strings.Split(strings.TrimSpace(m[1]), "\n") {
		cmd, comment, _ := strings.Cut(line, "#")
		cmd = strings.TrimSpace(strings.NewReplacer("<seed>", seed, "<file>", file).Replace(cmd))
		if rest, ok := strings.CutPrefix(cmd, "cp "); ok {
			src, _, _ := strings.Cut(rest, " ")
			if _, err := os.Stat(src); err != nil || !strings.Contains(cmd, "'TestCorpus/"+file+"$'") {
				t.Errorf("corpus line %q: the file is not there or the subtest is not its name (%v)", cmd, err)
			}
			continue
		}
		args, ok := strings.CutPrefix(cmd, "syncsim ")
		if !ok {
			t.Fatalf("walkthrough line %q is not a syncsim command", line)
		}
		want := exitOK
		if e := exitRe.FindStringSubmatch(comment); e != nil {
			want = int(e[1][0] - '0')
		}
		code, out, errs := syncsim(t, strings.Fields(args)...)
		if code != want {
			t.Fatalf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", cmd, code, want, out, errs)
		}
		ran++
		if seed == "" {
			s := regexp.MustCompile(`(?m)^SEED\s+(\d+)$`).FindStringSubmatch(out)
			files, _ := filepath.Glob("syncsim-failures/*.txt")
			if s == nil || len(files) != 1 {
				t.Fatalf("%s: no SEED in the report or not one saved file (%v)", cmd, files)
			}
			seed, file = s[1], strings.TrimSuffix(filepath.Base(files[0]), ".txt")
		}
	}
	if ran != 5 {
		t.Errorf("ran %d syncsim lines, want 5", ran)
	}
	if _, err := os.Stat("small.html"); err != nil {
		t.Errorf("explain wrote no page: %v", err)
	}
}
