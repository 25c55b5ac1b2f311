package main

import (
	"fmt"
	"go/scanner"
	"go/token"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Generated mutants. The hand-written catalogue holds the mistakes its
// authors thought of; a generated sample measures the oracle against
// mistakes nobody picked. -generate writes a catalogue of operator
// mutants in the style of go-gremlins' mutators — a conditional's
// boundary (< and <=, > and >=), its negation (== and !=), a logical
// operator (&& and ||), an increment (++ and --), the sign of an integer
// step (x + 1 and x - 1), a dropped !, and an integer literal one less —
// drawn from a seed, spread round-robin over every mutable file, each on a
// line that occurs once in its file. Operators inside strings and comments
// are never touched (the files are tokenised, not searched). Types are not
// checked: a + between strings is never drawn, but a rare mutant may still
// not compile, which a run reports as not measured.

// maxGenerated bounds -generate.
const maxGenerated = 10_000

// runGenerate is -generate: the catalogue goes to -o or stdout.
func runGenerate(root string, f flags, stdout, stderr io.Writer) int {
	w := stdout
	var out *os.File
	if f.out != "" {
		var err error
		if out, err = os.Create(f.out); err != nil {
			return usage(stderr, "%v", err)
		}
		w = out
	}
	err := generate(root, f.generate, f.genSeed, w)
	if out != nil {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "killmatrix: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// genOps maps a token to what it may become.
var genOps = map[token.Token]string{
	token.LSS: "<=", token.LEQ: "<", token.GTR: ">=", token.GEQ: ">",
	token.EQL: "!=", token.NEQ: "==",
	token.LAND: "||", token.LOR: "&&",
	token.INC: "--", token.DEC: "++",
}

// genCandidate is one possible edit: a token on a line of a file.
type genCandidate struct {
	file      string // slash-separated, relative to the module root
	line      string // the whole original line
	col       int    // byte offset of the token in line
	width     int    // bytes of the token
	repl, why string
}

// generate writes n generated mutants of the mutable files under root,
// drawn from seed, in the catalogue format.
func generate(root string, n int, seed uint64, w io.Writer) error {
	files, err := mutableFiles(root)
	if err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(seed, 0x6d7574616e74)) // "mutant"
	byFile := make([][]genCandidate, len(files))
	for i, f := range files {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return err
		}
		c := candidates(f, src)
		r.Shuffle(len(c), func(a, b int) { c[a], c[b] = c[b], c[a] })
		byFile[i] = c
	}
	fmt.Fprintf(w, "# Generated operator mutants: killmatrix -generate %d -gen-seed %d.\n# Not curated: some are equivalent, a few may not compile.\n\n", n, seed)
	made := 0
	for made < n {
		progress := false
		for i := range byFile {
			if made == n || len(byFile[i]) == 0 {
				continue
			}
			c := byFile[i][0]
			byFile[i] = byFile[i][1:]
			progress = true
			mutated := c.line[:c.col] + c.repl + c.line[c.col+c.width:]
			fmt.Fprintf(w, "mutant gen-%d-%03d\nfile %s\ndesc %s\n%s\n%s\n%s\n%s\n%s\n\n",
				seed, made, c.file, c.why, markOriginal, c.line, markReplacement, mutated, markEnd)
			made++
		}
		if !progress {
			return fmt.Errorf("only %d mutants could be generated, %d asked", made, n)
		}
	}
	return nil
}

// candidates lists every generatable edit of src (file f): operator and
// literal tokens on lines that occur exactly once in the file.
func candidates(f string, src []byte) []genCandidate {
	lines := strings.Split(string(src), "\n")
	count := map[string]int{}
	for _, l := range lines {
		count[l]++
	}
	fset := token.NewFileSet()
	file := fset.AddFile(f, -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, 0) // comments skipped
	type tok struct {
		pos token.Pos
		tok token.Token
		lit string
	}
	var toks []tok
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		toks = append(toks, tok{pos, t, lit})
	}
	var out []genCandidate
	for i, t := range toks {
		p := fset.Position(t.pos)
		line := lines[p.Line-1]
		if count[line] != 1 {
			continue
		}
		c := genCandidate{file: f, line: line, col: p.Column - 1, width: len(t.tok.String())}
		next := func() token.Token {
			if i+1 < len(toks) {
				return toks[i+1].tok
			}
			return token.EOF
		}
		switch {
		case genOps[t.tok] != "":
			c.repl = genOps[t.tok]
		case (t.tok == token.ADD || t.tok == token.SUB) && next() == token.INT && i > 0 && toks[i-1].tok == token.IDENT:
			c.repl = map[token.Token]string{token.ADD: "-", token.SUB: "+"}[t.tok] // an integer step, never a string +
		case t.tok == token.NOT:
			c.repl = ""
		case t.tok == token.INT:
			v, err := strconv.ParseInt(t.lit, 10, 64)
			if err != nil || v < 2 || t.lit != strconv.FormatInt(v, 10) {
				continue // hex, octal, huge or too small to lower
			}
			c.width, c.repl = len(t.lit), strconv.FormatInt(v-1, 10)
		default:
			continue
		}
		if line[c.col:c.col+c.width] != t.tok.String() && t.tok != token.INT {
			continue // the token is not where the line says (a multi-line token before it)
		}
		what := t.tok.String()
		if t.tok == token.INT {
			what = t.lit
		}
		c.why = fmt.Sprintf("%q becomes %q at line %d", what, c.repl, p.Line)
		out = append(out, c)
	}
	return out
}
