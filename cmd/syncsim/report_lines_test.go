package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every REPLAY line of a report runs as printed: the file replay meets the
// file's expectation (exit 0), the seed replay fails the same property
// again (exit 1), and the corpus line names the file's subtest.
func TestReportLinesRunAsPrinted(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := syncsim(t, "run", "-bug", "no-runtime-fence", "-seeds", "500", "-seed", "1", "-save", dir)
	if code != exitFail {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	property := regexp.MustCompile(`(?m)^PROPERTY  (\S+)`).FindStringSubmatch(out)
	_, replay, ok := strings.Cut(out, "\nREPLAY\n")
	if property == nil || !ok {
		t.Fatalf("no PROPERTY or REPLAY section:\n%s", out)
	}
	ran := 0
	for _, line := range strings.Split(replay, "\n") {
		line, ok := strings.CutPrefix(line, "  ")
		if !ok {
			break // the summary line ends the section
		}
		switch {
		case strings.HasPrefix(line, "syncsim replay -seed "):
			code, out, errs := syncsim(t, strings.Fields(line)[1:]...)
			if code != exitFail || !strings.Contains(out, "property="+property[1]) {
				t.Errorf("%s: exit %d, want 1 with property %s\nstderr: %s\nstdout tail: %s", line, code, property[1], errs, lastLine(out))
			}
		case strings.HasPrefix(line, "syncsim replay "):
			code, out, errs := syncsim(t, strings.Fields(line)[1:]...)
			if code != exitOK || !strings.HasPrefix(lastLine(out), "trace-hash ") {
				t.Errorf("%s: exit %d, want 0 ending in its trace-hash\nstderr: %s", line, code, errs)
			}
		case strings.HasPrefix(line, "cp "):
			m := regexp.MustCompile(`^cp (\S+) scenarios/testdata/corpus/ && go test \./scenarios -run 'TestCorpus/([^']+)'$`).FindStringSubmatch(line)
			if m == nil {
				t.Errorf("corpus line %q has an unexpected shape", line)
				continue
			}
			name := strings.TrimSuffix(filepath.Base(m[1]), ".txt")
			if !regexp.MustCompile("^" + m[2]).MatchString(name) {
				t.Errorf("corpus line %q does not select subtest %q", line, name)
			}
		default:
			t.Errorf("unexpected replay line %q", line)
			continue
		}
		ran++
	}
	if ran != 3 {
		t.Errorf("checked %d replay lines, want 3:\n%s", ran, replay)
	}
}
