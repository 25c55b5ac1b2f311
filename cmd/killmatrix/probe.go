package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// The two probes a mutant faces, each run with `go ... -overlay` so that
// no file of the tree is modified in place.

// examplePackages are the example tests of the mutated packages.
var examplePackages = []string{"./workspace", "./scheduler/..."}

// sweepResult is what the property sweep said.
type sweepResult struct {
	Killed   bool
	Property string
	Seed     uint64 // first failing seed
	Seeds    uint64 // seeds run up to and including it
	Detail   string
	Err      error // the sweep could not run or did not finish
	Wall     time.Duration
}

// exampleResult is what the example tests said.
type exampleResult struct {
	Killed bool
	// Failed names the first failing test ("pkg TestName") or package.
	Failed string
	Err    error // the tests did not build or did not finish
	Wall   time.Duration
}

// probeConfig is shared by every probe of one matrix run.
type probeConfig struct {
	root     string // module root
	seeds    uint64 // property sweep budget
	first    uint64 // first seed
	timeout  time.Duration
	goBinary string
	examples bool // run the example tests too
}

// writeOverlay writes the mutated file and the overlay JSON into dir and
// returns the overlay's path; an empty mutant (baseline) gets an empty
// overlay.
func writeOverlay(cfg probeConfig, dir string, m *Mutant, mutated []byte) (string, error) {
	replace := map[string]string{}
	if m != nil {
		dst := filepath.Join(dir, filepath.Base(m.File))
		if err := os.WriteFile(dst, mutated, 0o644); err != nil {
			return "", err
		}
		replace[filepath.Join(cfg.root, filepath.FromSlash(m.File))] = dst
	}
	b, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return "", err
	}
	ov := filepath.Join(dir, "overlay.json")
	return ov, os.WriteFile(ov, b, 0o644)
}

// runCmd runs name args in dir under the probe timeout and returns its
// combined output and exit code (-1 when it did not exit by itself).
func runCmd(cfg probeConfig, dir string, stdout *bytes.Buffer, name string, args ...string) (int, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), cfg.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	if stdout == nil {
		cmd.Stdout = &stderr
	}
	err := cmd.Run()
	if ctx.Err() != nil {
		return -1, stderr.String(), fmt.Errorf("%s %s: timed out after %s", name, strings.Join(args, " "), cfg.timeout)
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), stderr.String(), nil
	}
	if err != nil {
		return -1, stderr.String(), err
	}
	return 0, stderr.String(), nil
}

// sweepJSON is the part of `syncsim run -json` the matrix reads.
type sweepJSON struct {
	Seeds    int `json:"seeds"`
	Failures []struct {
		Seed     uint64 `json:"seed"`
		Property string `json:"property"`
		Detail   string `json:"detail"`
	} `json:"failures"`
}

// runSweep builds syncsim with the overlay and runs the default property
// sweep: first failure only, no shrinking, one worker (-j parallelises
// across mutants instead). Only a reported property violation is a kill.
func runSweep(cfg probeConfig, dir, overlay string) sweepResult {
	start := time.Now()
	res := sweepResult{}
	bin := filepath.Join(dir, "syncsim")
	if code, out, err := runCmd(cfg, cfg.root, nil, cfg.goBinary, "build", "-overlay", overlay, "-o", bin, "./cmd/syncsim"); err != nil || code != 0 {
		res.Err = fmt.Errorf("go build ./cmd/syncsim: exit %d %v: %s", code, err, lastLines(out, 6))
		return res
	}
	var stdout bytes.Buffer
	code, errOut, err := runCmd(cfg, dir, &stdout, bin, "run",
		"-seeds", fmt.Sprint(cfg.seeds), "-seed", fmt.Sprint(cfg.first),
		"-json", "-shrink=false", "-max-failures", "1", "-workers", "1", "-save", filepath.Join(dir, "failures"))
	res.Wall = time.Since(start)
	if err != nil {
		res.Err = err
		return res
	}
	var j sweepJSON
	if jerr := json.Unmarshal(stdout.Bytes(), &j); jerr != nil || (code != 0 && code != 1) {
		res.Err = fmt.Errorf("syncsim run: exit %d: %s", code, lastLines(errOut, 6))
		return res
	}
	if code == 1 && len(j.Failures) == 0 {
		res.Err = fmt.Errorf("syncsim run: exit 1 without a failure in its JSON")
		return res
	}
	if len(j.Failures) > 0 {
		f := j.Failures[0]
		res.Killed, res.Property, res.Seed, res.Detail = true, f.Property, f.Seed, f.Detail
		res.Seeds = f.Seed - cfg.first + 1
	}
	return res
}

var (
	failTestRE = regexp.MustCompile(`(?m)^\s*--- FAIL: (\S+)`)
	failPkgRE  = regexp.MustCompile(`(?m)^FAIL\t(\S+)`)
	brokenRE   = regexp.MustCompile(`\[(build|setup) failed\]`)
	// A test binary that hits -timeout panics and lists what was running.
	timedOutRE = regexp.MustCompile(`panic: test timed out after \S+\s+running tests:\s+(\S+)`)
)

// runExamples runs the example tests with the overlay. Vet is off: a vet
// complaint about the mutated file is not a test catching a bug.
func runExamples(cfg probeConfig, overlay string) exampleResult {
	start := time.Now()
	// The test binary's own timeout fires first, so a hang names its test.
	args := append([]string{"test", "-vet=off", "-overlay", overlay, "-timeout", (cfg.timeout * 9 / 10).String()}, examplePackages...)
	code, out, err := runCmd(cfg, cfg.root, nil, cfg.goBinary, args...)
	res := exampleResult{Wall: time.Since(start)}
	switch {
	case err != nil:
		res.Err = err
	case brokenRE.MatchString(out):
		res.Err = fmt.Errorf("go test: a package did not build: %s", lastLines(out, 8))
	case code == 0:
	default:
		res.Killed = true
		res.Failed = firstFailure(out)
	}
	return res
}

// firstFailure names the first failing test, with its package when the
// output says which package it belongs to.
func firstFailure(out string) string {
	pkg := ""
	if m := failPkgRE.FindStringSubmatch(out); m != nil {
		pkg = strings.TrimPrefix(m[1], "github.com/syncsim/syncsim/")
	}
	if m := failTestRE.FindStringSubmatch(out); m != nil {
		return strings.TrimSpace(pkg + " " + m[1])
	}
	if m := timedOutRE.FindStringSubmatch(out); m != nil {
		return strings.TrimSpace(pkg+" "+m[1]) + " (timed out)"
	}
	if pkg != "" {
		return pkg
	}
	return "go test exit status non-zero"
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// buildMutant compiles syncsim and the example tests with m applied,
// running no test.
func buildMutant(cfg probeConfig, m Mutant) error {
	dir, err := os.MkdirTemp("", "killmatrix-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	mutated, err := mutate(cfg.root, m)
	if err != nil {
		return err
	}
	ov, err := writeOverlay(cfg, dir, &m, mutated)
	if err != nil {
		return err
	}
	args := append([]string{"test", "-vet=off", "-overlay", ov, "-run", "^$", "./cmd/syncsim"}, examplePackages...)
	if code, out, err := runCmd(cfg, cfg.root, nil, cfg.goBinary, args...); err != nil || code != 0 {
		return fmt.Errorf("mutant %s (catalogue line %d) does not compile: %s", m.Name, m.Line, lastLines(out, 6))
	}
	return nil
}
