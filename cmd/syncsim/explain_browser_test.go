//go:build linux

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// chromiumBin is Debian's chromium, where installed (apt-get install chromium).
func chromiumBin() string {
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	return ""
}

// chromiumTries bounds the starts of one chromium command. A browser that
// dies before it prints (a crashed zygote, a GPU process that did not come
// up on a loaded CI machine) says nothing about the page; a page that
// fails says so in the dumped DOM, which every try still checks.
const chromiumTries = 3

// runChromium runs headless chromium on url with extra flags and returns its
// stdout and stderr. Every process it starts is killed on the timeout; a
// run that exits with an error is started again, with a fresh profile, up
// to chromiumTries times.
func runChromium(t *testing.T, bin, profile, url string, extra ...string) (stdout, stderr string) {
	t.Helper()
	var err error
	for try := 1; try <= chromiumTries; try++ {
		stdout, stderr, err = chromiumOnce(t, bin, fmt.Sprintf("%s-%d", profile, try), url, extra...)
		if err == nil {
			return stdout, stderr
		}
		t.Logf("chromium %v, start %d of %d: %v", extra, try, chromiumTries, err)
	}
	t.Fatalf("chromium %v: %v after %d starts; stderr:\n%s", extra, err, chromiumTries, tail(stderr, 40))
	return "", ""
}

// chromiumOnce is one start of chromium; only a timeout is fatal at once.
func chromiumOnce(t *testing.T, bin, profile, url string, extra ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--hide-scrollbars",
		"--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0",
	}, extra...)
	args = append(args, url)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("chromium timed out after 90s; stderr:\n%s", tail(errb.String(), 40))
	}
	return out.String(), errb.String(), err
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}

// TestExplainHTMLChromium loads the page of a failing run in headless
// Chromium: its script must build every lane and the violation marker
// without an error. SYNCSIM_EXPLAIN_SCREENSHOT=path keeps a screenshot.
func TestExplainHTMLChromium(t *testing.T) {
	bin := chromiumBin()
	if bin == "" {
		t.Skip("chromium not installed: apt-get install chromium")
	}
	s, r := explainFailingRun(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "explain.html")
	if err := os.WriteFile(page, renderExplain(t, s, r), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "file://" + page

	dom, stderr := runChromium(t, bin, filepath.Join(dir, "profile"), url, "--dump-dom")
	body := regexp.MustCompile(`<body[^>]*>`).FindString(dom)
	if body == "" {
		t.Fatalf("no <body> in the dumped DOM; stderr:\n%s", tail(stderr, 40))
	}
	if m := regexp.MustCompile(`data-error="([^"]*)"`).FindStringSubmatch(body); m != nil {
		t.Fatalf("the page's script failed: %s", m[1])
	}
	if !strings.Contains(body, `data-ready="ok"`) {
		t.Fatalf("the page's script did not finish (body %s); stderr:\n%s", body, tail(stderr, 40))
	}
	if strings.Contains(stderr, "Uncaught") {
		t.Errorf("script error on the console:\n%s", tail(stderr, 40))
	}
	var lanes []string
	for b := range s.Config.Backends {
		lanes = append(lanes, "b"+string(rune('0'+b)))
	}
	lanes = append(lanes, "host")
	if want := `data-lanes="` + strings.Join(lanes, " ") + `"`; !strings.Contains(body, want) {
		t.Errorf("body %s lacks %s", body, want)
	}
	for _, l := range lanes {
		if !strings.Contains(dom, `data-lane="`+l+`"`) {
			t.Errorf("no lane %s drawn", l)
		}
	}
	for _, want := range []string{`class="item vline violation`, `class="item op op-exec`, `class="item fault`, `VIOLATION ` + r.Violation.Property} {
		if !strings.Contains(dom, want) {
			t.Errorf("the drawn timeline lacks %q", want)
		}
	}

	// Every bar is labelled, a short one after its end.
	bars := regexp.MustCompile(`<g class="item (?:op|pull|intent|alarm-armed)[^"]*"[^>]*>(.*?)</g>`).FindAllStringSubmatch(dom, -1)
	outside := 0
	for _, g := range bars {
		if !strings.Contains(g[1], "<text") {
			t.Errorf("a bar without a label: %.300s", g[0])
		}
		if strings.Contains(g[1], `class="lbl out"`) {
			outside++
		}
	}
	if len(bars) == 0 || outside == 0 {
		t.Errorf("%d bars drawn, %d labelled after the bar: want some of each", len(bars), outside)
	}

	shot := filepath.Join(dir, "explain.png")
	runChromium(t, bin, filepath.Join(dir, "profile"), url, "--screenshot="+shot, "--window-size=1400,900")
	png, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) || len(png) < 10_000 {
		t.Fatalf("screenshot is not a plausible PNG (%d bytes)", len(png))
	}
	if keep := os.Getenv("SYNCSIM_EXPLAIN_SCREENSHOT"); keep != "" {
		if err := os.WriteFile(keep, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot kept at %s", keep)
	}
}
