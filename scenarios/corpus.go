package scenarios

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// CorpusDir is where the regression corpus lives, relative to this
// package: TestCorpus replays every file under it.
const CorpusDir = "testdata/corpus"

// corpusHashLen is how many hex digits of the scenario's hash a corpus
// file name carries: enough that two different failures never collide in
// a corpus of thousands.
const corpusHashLen = 12

// CorpusName is the stable file name of a corpus file for s failing
// property ("ok" when it passes): "<property>-<bug or correct>-<hash>.txt",
// the hash taken over Format(s), so the same scenario always gets the same
// name and no name carries a time or a process id.
func CorpusName(s Scenario, property string) string {
	if property == "" {
		property = "ok"
	}
	bug := s.Config.Bug
	if bug == "" {
		bug = "correct"
	}
	sum := sha256.Sum256([]byte(Format(s)))
	return nameSafe(property) + "-" + nameSafe(bug) + "-" + hex.EncodeToString(sum[:])[:corpusHashLen] + ".txt"
}

// nameSafe keeps a name to [a-z0-9-], so a file name needs no quoting.
func nameSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
			return r
		case r >= 'A' && r <= 'Z':
			return r - 'A' + 'a'
		}
		return '-'
	}, s)
}

// WriteCorpusFile saves s as a corpus file in dir (created if missing) and
// returns its path. r is the run that found the failure: its violated
// property names the file. The expected block is not taken from r (which
// may come from a run with a bounded trace or without the liveness tail)
// but from replaying s exactly as TestCorpus will; if that replay does not
// break the same property, nothing is written and the error says so.
// Writing the same scenario twice rewrites the same file.
func WriteCorpusFile(dir string, s Scenario, r Result) (string, error) {
	property := ""
	if r.Violation != nil {
		property = r.Violation.Property
	}
	replay, err := Run(s, RunOptions{})
	if err != nil {
		return "", fmt.Errorf("scenarios: replay for the corpus: %w", err)
	}
	got := ""
	if replay.Violation != nil {
		got = replay.Violation.Property
	}
	if got != property {
		return "", fmt.Errorf("scenarios: the scenario does not replay as found: run reported %q, replay reports %q", orOK(property), orOK(got))
	}
	name := CorpusName(s, property)
	text := corpusText(s, replay, strings.TrimSuffix(name, ".txt"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("scenarios: %w", err)
	}
	path := filepath.Join(dir, name)
	// Write to a hidden temporary file and rename, so that a concurrent
	// TestCorpus never reads half a file (datadriven.Walk skips dot files).
	tmp, err := os.CreateTemp(dir, ".corpus-*")
	if err != nil {
		return "", fmt.Errorf("scenarios: %w", err)
	}
	_, werr := tmp.WriteString(text)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("scenarios: write corpus file: %w", werr)
	}
	return path, nil
}

func orOK(property string) string {
	if property == "" {
		return "ok"
	}
	return property
}

// corpusText is a whole corpus file: a comment saying what it is and how
// to replay it, the case, "----" and Observe's output.
func corpusText(s Scenario, r Result, test string) string {
	var b strings.Builder
	what := "passes"
	if r.Violation != nil {
		what = "violates " + r.Violation.Property
	}
	code := "the correct code"
	if s.Config.Bug != "" {
		code = "planted bug " + s.Config.Bug + " (TestCorpus also replays it with bug=none, which must pass)"
	}
	fmt.Fprintf(&b, "# Found by syncsim: %s under %s.\n", what, code)
	fmt.Fprintf(&b, "# Replay: go test ./scenarios -run 'TestCorpus/%s$'  (add -rewrite to regenerate the expectation)\n", test)
	b.WriteString(Format(s))
	b.WriteString("----\n")
	b.WriteString(Observe(r))
	return b.String()
}
