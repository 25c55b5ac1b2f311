package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/scenarios"
)

// explainFailingRun finds the first seed from 1 whose run fails under the
// single-alarm planted bug and returns it with its result.
func explainFailingRun(t testing.TB) (scenarios.Scenario, scenarios.Result) {
	t.Helper()
	cfg := scenarios.DefaultConfig
	cfg.Bug = "single-alarm"
	for seed := uint64(1); seed <= 200; seed++ {
		s := scenarios.FromSeed(seed, cfg)
		r, err := scenarios.Run(s, scenarios.RunOptions{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if r.Violation != nil {
			return s, r
		}
	}
	t.Fatal("no seed in 1..200 fails under single-alarm")
	return scenarios.Scenario{}, scenarios.Result{}
}

func renderExplain(t testing.TB, s scenarios.Scenario, r scenarios.Result) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := renderExplainHTML(&buf, s, r); err != nil {
		t.Fatalf("renderExplainHTML: %v", err)
	}
	return buf.Bytes()
}

func TestExplainHTMLFailingRun(t *testing.T) {
	s, r := explainFailingRun(t)
	page := renderExplain(t, s, r)
	html := string(page)

	if again := renderExplain(t, s, r); !bytes.Equal(page, again) {
		t.Fatal("two renders of one run differ")
	}
	// A second run of the same seed renders the same bytes too.
	r2, err := scenarios.Run(s, scenarios.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again := renderExplain(t, s, r2); !bytes.Equal(page, again) {
		t.Fatal("renders of two runs of one seed differ")
	}

	for _, want := range []string{
		"<!doctype html>", "</html>", `id="tl"`,
		"VIOLATION: " + r.Violation.Property,
		r.Hash,
		s.Profile.String(),
		`"name":"host"`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for b := range s.Config.Backends {
		name := "b" + string(rune('0'+b))
		if !strings.Contains(html, `"name":"`+name+`"`) {
			t.Errorf("page has no lane for backend %s", name)
		}
	}
	if !regexp.MustCompile(`"k":"vline violation"`).MatchString(html) {
		t.Error("the timeline has no violation marker")
	}
	for _, kind := range []string{`"k":"op op-exec`, `"k":"pull pull-`, `"k":"intent backoff`, `"k":"fault`} {
		if !strings.Contains(html, kind) {
			t.Errorf("the timeline has no %s mark", kind)
		}
	}
	// Self-contained: nothing to fetch, not even the SVG namespace string.
	for _, bad := range []string{"http://", "https://", "@import", "<link", "src=", "fetch(", "XMLHttpRequest", "innerHTML"} {
		if strings.Contains(html, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	// Every trace line is listed, escaped.
	for _, l := range r.Trace.Lines() {
		if !strings.Contains(html, template_escape(l)) {
			t.Fatalf("trace line missing from the listing: %s", l)
		}
	}
	if dir := os.Getenv("SYNCSIM_EXPLAIN_OUT"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, "explain.html"), page, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// template_escape is html/template's escaping of text in an element.
func template_escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "+", "&#43;", "\x00", "\uFFFD").Replace(s)
}
