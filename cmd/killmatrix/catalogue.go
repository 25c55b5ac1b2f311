package main

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strings"
)

// Mutant is one hand-written change to a production file.
type Mutant struct {
	Name string
	// File is the mutated file, slash-separated, relative to the module root.
	File string
	// Desc says in one line what an engineer changed.
	Desc string
	// Equivalent, when set, is why no test could ever tell the mutant from
	// the correct code; such mutants are left out of the kill rate.
	Equivalent string
	// Original and Replacement are whole lines. Replacement may be empty
	// (the lines are deleted).
	Original, Replacement []string
	// Line is where the mutant starts in the catalogue, for messages.
	Line int
}

// Catalogue markers. A snippet line is taken verbatim until the next
// marker, so a marker can never be part of a snippet; no gofmt'ed Go line
// starts with "--- ".
const (
	markOriginal    = "--- original"
	markReplacement = "--- replacement"
	markEnd         = "--- end"
)

var nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// parseCatalogue reads the catalogue format documented in doc.go. Every
// error names name:line.
func parseCatalogue(name string, r io.Reader) ([]Mutant, error) {
	const (
		outside = iota
		header
		original
		replacement
	)
	var (
		out   []Mutant
		cur   *Mutant
		state = outside
		seen  = map[string]int{}
		sc    = bufio.NewScanner(r)
		n     = 0
	)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	fail := func(format string, args ...any) ([]Mutant, error) {
		return nil, fmt.Errorf("%s:%d: %s", name, n, fmt.Sprintf(format, args...))
	}
	for sc.Scan() {
		n++
		line := sc.Text()
		switch state {
		case outside:
			if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
				continue
			}
			rest, ok := strings.CutPrefix(line, "mutant ")
			if !ok {
				return fail("want \"mutant NAME\", got %q", line)
			}
			if !nameRE.MatchString(rest) {
				return fail("mutant name %q: want lower-case words joined by '-'", rest)
			}
			if at, dup := seen[rest]; dup {
				return fail("mutant %s already defined at line %d", rest, at)
			}
			seen[rest] = n
			out = append(out, Mutant{Name: rest, Line: n})
			cur, state = &out[len(out)-1], header
		case header:
			if line == markOriginal {
				if err := checkHeader(cur); err != nil {
					return fail("mutant %s: %v", cur.Name, err)
				}
				state = original
				continue
			}
			if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
				continue
			}
			key, val, _ := strings.Cut(line, " ")
			val = strings.TrimSpace(val)
			var dst *string
			switch key {
			case "file":
				dst = &cur.File
			case "desc":
				dst = &cur.Desc
			case "equivalent":
				dst = &cur.Equivalent
			default:
				return fail("mutant %s: unknown key %q (want file, desc, equivalent or %q)", cur.Name, key, markOriginal)
			}
			if *dst != "" {
				return fail("mutant %s: %s given twice", cur.Name, key)
			}
			if val == "" {
				return fail("mutant %s: %s is empty", cur.Name, key)
			}
			*dst = val
		case original:
			if line == markReplacement {
				if strings.TrimSpace(strings.Join(cur.Original, "")) == "" {
					return fail("mutant %s: empty original snippet", cur.Name)
				}
				state = replacement
				continue
			}
			if strings.HasPrefix(line, "--- ") {
				return fail("mutant %s: want %q, got %q", cur.Name, markReplacement, line)
			}
			cur.Original = append(cur.Original, line)
		case replacement:
			if line == markEnd {
				if slices.Equal(cur.Original, cur.Replacement) {
					return fail("mutant %s: replacement equals the original", cur.Name)
				}
				state = outside
				continue
			}
			if strings.HasPrefix(line, "--- ") {
				return fail("mutant %s: want %q, got %q", cur.Name, markEnd, line)
			}
			cur.Replacement = append(cur.Replacement, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if state != outside {
		return fail("mutant %s: catalogue ends inside it (want %q)", cur.Name, markEnd)
	}
	return out, nil
}

// checkHeader requires file and desc, and a file that is a production Go
// file of a package the matrix mutates.
func checkHeader(m *Mutant) error {
	switch {
	case m.File == "":
		return fmt.Errorf("no file")
	case m.Desc == "":
		return fmt.Errorf("no desc")
	case path.Clean(m.File) != m.File || strings.HasPrefix(m.File, "/"):
		return fmt.Errorf("file %q: want a clean path relative to the module root", m.File)
	case !strings.HasSuffix(m.File, ".go") || strings.HasSuffix(m.File, "_test.go"):
		return fmt.Errorf("file %q: want a non-test .go file", m.File)
	case !mutatedDir(path.Dir(m.File)):
		return fmt.Errorf("file %q: want a file directly in one of %s", m.File, strings.Join(mutatedDirs, ", "))
	}
	return nil
}
