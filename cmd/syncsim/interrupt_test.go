//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// binDir holds the built binary; TestMain removes it.
var binDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// builtBinary builds syncsim once per test process: an interrupt is only
// honest when a real signal reaches a real process.
var builtBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "syncsim-bin-")
	if err != nil {
		return "", err
	}
	binDir = dir
	bin := filepath.Join(dir, "syncsim")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", &buildError{err, string(out)}
	}
	return bin, nil
})

type buildError struct {
	err error
	out string
}

func (b *buildError) Error() string { return b.err.Error() + ": " + b.out }

// interruptWait bounds how long a test waits for the sweep to get going.
const interruptWait = 90 * time.Second

// signalled starts `syncsim args...`, waits until ready() says the sweep
// has got somewhere, sends sig and returns the exit code and output.
func signalled(t *testing.T, sig syscall.Signal, ready func(stdout string) bool, args ...string) (int, string, string) {
	t.Helper()
	return signalledTimes(t, sig, 1, ready, args...)
}

// signalledTimes is signalled sending sig n times, 50 ms apart (one
// interrupt delivered twice, as GNU timeout does, when n is 2).
func signalledTimes(t *testing.T, sig syscall.Signal, n int, ready func(stdout string) bool, args ...string) (int, string, string) {
	t.Helper()
	bin, err := builtBinary()
	if err != nil {
		t.Fatalf("go build: %v", err)
	}
	cmd := exec.Command(bin, args...)
	var out, errb lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(interruptWait)
	for !ready(out.String()) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("syncsim %s never got ready\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), out.String(), errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	for i := range n {
		if i > 0 {
			time.Sleep(50 * time.Millisecond) // the first is handled before the next lands
		}
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
	}
	err = cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

// lockedBuffer is written by the child's copier and read by the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// savedFiles lists the scenario files in dir.
func savedFiles(dir string) []string {
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	return files
}

// A clean sweep interrupted with SIGINT prints its summary and exits 130.
func TestInterruptPrintsSummary(t *testing.T) {
	code, out, errs := signalled(t, syscall.SIGINT,
		func(out string) bool { return strings.Contains(out, "syncsim: run ") },
		"run", "-seeds", "100000000", "-seed", "1", "-save", t.TempDir())
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitInterrupted, out, errs)
	}
	l := lastLine(out)
	if !summaryRe.MatchString(l) || !strings.Contains(l, " 0 failed (interrupted after ") {
		t.Errorf("last line %q is not an interrupted summary", l)
	}
	if !strings.Contains(errs, "interrupt") {
		t.Errorf("stderr does not say the sweep was interrupted: %q", errs)
	}
}

// With -max-failures 0 every failure is saved and reported as it is found;
// SIGINT keeps all of them and the summary counts exactly those.
func TestInterruptKeepsFailuresFoundSoFar(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := signalled(t, syscall.SIGINT,
		// Saved before the sweep ends: the sweep would run for hours.
		func(string) bool { return len(savedFiles(dir)) >= 2 },
		"run", "-bug", "fifo-overlap", "-max-failures", "0", "-seeds", "100000000", "-seed", "1", "-save", dir)
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d\nstderr:\n%s", code, exitInterrupted, errs)
	}
	m := regexp.MustCompile(`, (\d+) failed \(interrupted after`).FindStringSubmatch(lastLine(out))
	if m == nil {
		t.Fatalf("last line %q is not an interrupted summary", lastLine(out))
	}
	failed, _ := strconv.Atoi(m[1])
	if reports := strings.Count(out, "\n--- FAIL ") + boolInt(strings.HasPrefix(out, "--- FAIL ")); reports != failed || failed < 2 {
		t.Errorf("%d reports printed, summary says %d failed (want at least 2)", reports, failed)
	}
	for _, f := range savedFiles(dir) {
		if !strings.Contains(out, "  syncsim replay "+f+"\n") {
			t.Errorf("saved file %s is not in any report", f)
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Under -json (and SIGTERM, what `timeout` sends) stdout still holds the
// one object, marked interrupted, listing every failure with its file.
func TestInterruptJSONStillPrintsTheObject(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := signalled(t, syscall.SIGTERM,
		func(string) bool { return len(savedFiles(dir)) >= 1 },
		"run", "-json", "-bug", "fifo-overlap", "-max-failures", "0", "-seeds", "100000000", "-seed", "1", "-save", dir)
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d\nstderr:\n%s", code, exitInterrupted, errs)
	}
	var j runJSON
	decodeOne(t, out, &j)
	if !j.Interrupted || j.Failed < 1 || j.Failed != len(j.Failures) || j.Seeds != j.Passed+j.Failed || uint64(j.Seeds) >= j.SeedsPlanned {
		t.Errorf("summary %+v, want interrupted with its failures", comparable(j))
	}
	for _, f := range j.Failures {
		if _, err := os.Stat(f.File); err != nil {
			t.Errorf("failure at seed %d: file %q: %v", f.Seed, f.File, err)
		}
	}
}

// One interrupt delivered twice at once (GNU timeout signals its child and
// then its process group, as CI's per-command limit does) is still a clean
// stop: the summary and exit 130, not death by the second signal.
func TestInterruptDeliveredTwiceStopsCleanly(t *testing.T) {
	ready := func(out string) bool { return strings.Contains(out, "syncsim: run ") }
	// Long scenarios keep the seeds in flight running for a while after the
	// first signal, so the second lands before the sweep has ended.
	code, out, errb := signalledTimes(t, syscall.SIGTERM, 2, ready,
		"run", "-seeds", "100000000", "-seed", "1", "-steps", "5000", "-check-determinism", "-save", t.TempDir())
	if code != exitInterrupted || !strings.Contains(lastLine(out), "(interrupted after ") {
		t.Fatalf("exit %d, want %d with the summary\nstdout tail: %q\nstderr:\n%s", code, exitInterrupted, lastLine(out), errb)
	}
}
