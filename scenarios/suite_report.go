package scenarios

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Report renders the failure in the fixed shape every syncsim report has,
// ending in the lines that replay it.
func (f Failure) Report() string {
	var b strings.Builder
	indent := func(s string) string { return strings.ReplaceAll(s, "\n", "\n          ") }
	fmt.Fprintf(&b, "SEED      %d\n", f.Seed)
	fmt.Fprintf(&b, "STORE     %s\n", orBuiltIn(f.Store, f.Scenario.Config))
	fmt.Fprintf(&b, "PROFILE   %s\n", f.Scenario.Profile)
	fmt.Fprintf(&b, "PROPERTY  %s\n", f.Violation.Property)
	fmt.Fprintf(&b, "DETAIL    %s\n", indent(f.Violation.Detail))
	ops, what := f.Scenario.Ops, "the generated scenario"
	if f.Shrunk != nil {
		ops, what = f.Shrunk.Ops, fmt.Sprintf("shrunk from %d with the same store", Steps(f.Scenario.Ops))
	}
	fmt.Fprintf(&b, "OPS       %d steps, %s\n", Steps(ops), what)
	for _, op := range ops {
		fmt.Fprintf(&b, "          %s\n", indent(op.String()))
	}
	b.WriteString("TRACE (last lines of the generated scenario)\n")
	for _, l := range f.Tail {
		fmt.Fprintf(&b, "          %s\n", l)
	}
	if f.Violation.Stacks != "" {
		b.WriteString("STACKS (goroutines when it was reported)\n")
		b.WriteString(StacksExcerpt(f.Violation.Stacks, "          "))
	}
	for i, l := range f.Replay {
		head := "          "
		if i == 0 {
			head = "REPLAY    "
		}
		b.WriteString(head + l + "\n")
	}
	if len(f.Replay) == 0 {
		fmt.Fprintf(&b, "REPLAY    rerun the sweep with SuiteOptions{FirstSeed: %d, Seeds: 1}\n", f.Seed)
	}
	return b.String()
}

// orBuiltIn names the store a report ran with.
func orBuiltIn(store string, c Config) string {
	if store != "" {
		return store
	}
	return orMemory(c.Scheduler) + " (built in)"
}

func orMemory(s string) string {
	if s == "" {
		return "memory"
	}
	return s
}

// syncsimReplayLine is the command-line replay of seed under c, for the
// built-in stores: every flag that shapes the scenario.
func syncsimReplayLine(seed uint64, c Config) string {
	s := fmt.Sprintf("syncsim replay -seed %d -steps %d", seed, c.Steps)
	if c.Backends != 0 { // 0 draws the count from the seed again
		s += fmt.Sprintf(" -backends %d", c.Backends)
	}
	s += bugFlag(c.Bug)
	if c.Scheduler != "" && c.Scheduler != DefaultConfig.Scheduler {
		s += " -scheduler " + c.Scheduler
	}
	if c.LocalStore != "" && c.LocalStore != "memory" {
		s += " -local " + c.LocalStore
	}
	return s
}

func bugFlag(bug string) string {
	if bug == "" {
		return ""
	}
	return " -bug " + bug
}

// goTestLine runs the calling test again on the one seed, from the module
// root: the test's own name (each subtest level anchored), its package
// directory, and the flags that pin the seed (and the steps, when they came
// from the flags rather than from the test's code).
func goTestLine(test string, seed uint64, o SuiteOptions) string {
	parts := strings.Split(test, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	s := fmt.Sprintf("go test %s -run '%s' -syncsim.seed=%d -syncsim.seeds=1", packageDir(), strings.Join(parts, "/"), seed)
	if *flagSteps > 0 || os.Getenv("SYNCSIM_STEPS") != "" {
		s += fmt.Sprintf(" -syncsim.steps=%d", o.Config.Steps)
	}
	return s + " -v"
}

// packageDir is the test's package directory relative to its module root
// (go test runs a test in its package directory), "." when no go.mod is
// found above it.
func packageDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, err := filepath.Rel(dir, wd)
			if err != nil || rel == "." {
				return "."
			}
			return "./" + filepath.ToSlash(rel)
		}
		if filepath.Dir(dir) == dir {
			return "."
		}
	}
}
