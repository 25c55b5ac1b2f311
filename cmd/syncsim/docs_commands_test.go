package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// shBlockRe finds a page's ```sh blocks.
var shBlockRe = regexp.MustCompile("(?ms)^```sh\n(.*?)^```")

// placeholderRe is a value the reader fills in (<seed>, <file>).
var placeholderRe = regexp.MustCompile(`<[a-z-]+>`)

// Every syncsim command a page prints names a real subcommand and only
// flags it has: each is parsed as written (placeholders read as 1) with -h
// appended, which prints help once the flags before it parsed. The
// README's own commands also run for real in .ci/readme-commands; the
// pages' longer ones (a five-window hunt, a bench) are only parsed here.
func TestDocsCommandsParse(t *testing.T) {
	parsed := 0
	for _, page := range docPages(t) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(repoRoot, page)
		for _, block := range shBlockRe.FindAllStringSubmatch(string(b), -1) {
			for _, line := range strings.Split(block[1], "\n") {
				cmd, _, _ := strings.Cut(line, "#")
				args, ok := strings.CutPrefix(strings.TrimSpace(cmd), "syncsim ")
				if !ok {
					continue
				}
				args = placeholderRe.ReplaceAllString(args, "1")
				if i := strings.IndexAny(args, "|>&;"); i >= 0 {
					args = args[:i] // a redirect or a pipe is the shell's
				}
				fields := strings.Fields(args)
				if fields[0] != "help" { // help takes no flags; it runs as is
					fields = append(fields, "-h")
				}
				if code := run(fields, io.Discard, io.Discard); code != exitOK {
					t.Errorf("%s: %q does not parse (exit %d)", rel, strings.TrimSpace(cmd), code)
				}
				parsed++
			}
		}
	}
	if parsed < 15 {
		t.Errorf("parsed %d syncsim commands in README.md and docs/; the scan is broken", parsed)
	}
}
