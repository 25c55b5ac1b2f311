// Command killmatrix measures how many hand-written mutants of the system
// under test the default property sweep and the example tests kill; see
// doc.go.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Exit codes.
const (
	exitOK    = 0 // the matrix (or the check) ran; kills and survivors are data
	exitUsage = 2 // bad flags, a catalogue that does not apply, a failed probe
)

// defaultSeeds is the seed budget of the default property sweep that
// `go test ./...` runs: TestSweep in scenarios/sweep_test.go sweeps 600
// seeds from seed 1 with scenarios.DefaultConfig, the same scenarios
// `syncsim run -seeds 600 -seed 1` draws.
const defaultSeeds = 600

// defaultCatalogue is the mutant catalogue, relative to the module root.
const defaultCatalogue = "cmd/killmatrix/testdata/mutants.txt"

const modulePath = "github.com/syncsim/syncsim"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type flags struct {
	catalogue string
	mutant    string
	seeds     uint64
	seed      uint64
	jobs      int
	out       string
	check     bool
	build     bool
	examples  bool
	list      bool
	timeout   time.Duration
	generate  int
	genSeed   uint64
}

func run(args []string, stdout, stderr io.Writer) int {
	var f flags
	fs := flag.NewFlagSet("killmatrix", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.catalogue, "catalogue", defaultCatalogue, "mutant catalogue, relative to the module root")
	fs.StringVar(&f.mutant, "mutant", "", "run only mutants whose name matches this regexp")
	fs.Uint64Var(&f.seeds, "seeds", defaultSeeds, "property sweep budget (600: the budget of go test's TestSweep)")
	fs.Uint64Var(&f.seed, "seed", 1, "first seed of the property sweep")
	fs.IntVar(&f.jobs, "j", 1, "mutants measured in parallel")
	fs.StringVar(&f.out, "o", "", "write the markdown report here (between its markers if the file has them); default stdout")
	fs.BoolVar(&f.check, "check", false, "only check that every mutant applies exactly once and every file is covered; build nothing")
	fs.BoolVar(&f.build, "build", false, "with -check: also compile every selected mutant and the example tests against it (no test runs)")
	fs.BoolVar(&f.examples, "examples", true, "also run the example tests (false: property sweep only, e.g. for a deeper budget)")
	fs.BoolVar(&f.list, "list", false, "list the selected mutants and exit")
	fs.DurationVar(&f.timeout, "timeout", 5*time.Minute, "bound on each build, sweep and test run")
	fs.IntVar(&f.generate, "generate", 0, "instead: write a catalogue of N generated operator mutants (to -o, default stdout) and exit")
	fs.Uint64Var(&f.genSeed, "gen-seed", 1, "with -generate: the seed the mutants are drawn from")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		return usage(stderr, "unexpected argument %q", fs.Arg(0))
	}
	switch {
	case f.seeds < 1:
		return usage(stderr, "-seeds must be at least 1")
	case f.seed < 1:
		return usage(stderr, "-seed must be at least 1")
	case f.jobs < 1 || f.jobs > runtime.NumCPU()*4:
		return usage(stderr, "-j must be in 1..%d", runtime.NumCPU()*4)
	case f.timeout <= 0:
		return usage(stderr, "-timeout must be positive")
	case f.generate < 0 || f.generate > maxGenerated:
		return usage(stderr, "-generate must be in 0..%d", maxGenerated)
	}
	sel, err := regexp.Compile(f.mutant)
	if err != nil {
		return usage(stderr, "-mutant: %v", err)
	}
	root, err := moduleRoot()
	if err != nil {
		return usage(stderr, "%v", err)
	}
	if f.generate > 0 {
		return runGenerate(root, f, stdout, stderr)
	}
	catPath := f.catalogue
	if !filepath.IsAbs(catPath) {
		catPath = filepath.Join(root, filepath.FromSlash(catPath))
	}
	cat, err := loadCatalogue(catPath)
	if err != nil {
		return usage(stderr, "%v", err)
	}
	var picked []Mutant
	for _, m := range cat {
		if sel.MatchString(m.Name) {
			picked = append(picked, m)
		}
	}
	if len(picked) == 0 {
		return usage(stderr, "-mutant %q matches no mutant", f.mutant)
	}
	cfg := probeConfig{root: root, seeds: f.seeds, first: f.seed, timeout: f.timeout, goBinary: "go", examples: f.examples}
	if f.check {
		code := runCheck(root, cat, stdout, stderr)
		if code == exitOK && f.build {
			code = runBuildCheck(cfg, picked, stdout, stderr)
		}
		return code
	}
	if f.list {
		for _, m := range picked {
			fmt.Fprintf(stdout, "%s\t%s\t%s\n", m.Name, m.File, m.Desc)
		}
		return exitOK
	}
	start := time.Now()
	commit := gitCommit(root) // before the run: the tree measured, not the tree at the end
	base := measure(cfg, nil)
	if err := base.baselineProblem(); err != nil {
		fmt.Fprintf(stderr, "killmatrix: the unmutated tree fails its own probes, nothing to measure: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stderr, "killmatrix: baseline passes (%d seeds, example tests %t); measuring %d mutants on %d jobs\n", f.seeds, f.examples, len(picked), f.jobs)
	results := measureAll(cfg, picked, f.jobs, stderr)
	rep := report{
		Results: results, Seeds: f.seeds, First: f.seed, Command: commandLine(args),
		Date: time.Now().UTC().Format(time.DateOnly), Commit: commit, Examples: f.examples,
		GoVersion: runtime.Version(), Wall: time.Since(start), Catalogue: f.catalogue,
	}
	if err := writeReport(f.out, stdout, rep); err != nil {
		fmt.Fprintf(stderr, "killmatrix: %v\n", err)
		return exitUsage
	}
	fmt.Fprintln(stderr, "killmatrix: "+rep.summaryLine())
	if n := rep.errors(); n > 0 {
		fmt.Fprintf(stderr, "killmatrix: %d mutants could not be measured (see the report); fix the catalogue or the tree\n", n)
		return exitUsage
	}
	return exitOK
}

func usage(w io.Writer, format string, args ...any) int {
	fmt.Fprintf(w, "killmatrix: %s\n", fmt.Sprintf(format, args...))
	return exitUsage
}

func loadCatalogue(path string) ([]Mutant, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseCatalogue(path, f)
}

// runCheck is -check: every problem on stderr, exit 2 if there is one.
func runCheck(root string, cat []Mutant, stdout, stderr io.Writer) int {
	errs := checkCatalogue(root, cat)
	for _, err := range errs {
		fmt.Fprintf(stderr, "killmatrix: %v\n", err)
	}
	if len(errs) > 0 {
		return exitUsage
	}
	files := map[string]bool{}
	for _, m := range cat {
		files[m.File] = true
	}
	fmt.Fprintf(stdout, "killmatrix: %d mutants over %d files apply cleanly\n", len(cat), len(files))
	return exitOK
}

// runBuildCheck is -check -build: every picked mutant must compile, with
// the example tests and syncsim, or it would be reported as not measured.
func runBuildCheck(cfg probeConfig, ms []Mutant, stdout, stderr io.Writer) int {
	bad := 0
	for _, m := range ms {
		if err := buildMutant(cfg, m); err != nil {
			fmt.Fprintf(stderr, "killmatrix: %v\n", err)
			bad++
		}
	}
	if bad > 0 {
		return exitUsage
	}
	fmt.Fprintf(stdout, "killmatrix: %d mutants compile\n", len(ms))
	return exitOK
}

// result is one mutant's measurement.
type result struct {
	M        Mutant
	Err      error // the mutant could not be applied or staged
	Sweep    sweepResult
	Examples exampleResult
}

// measure stages m (nil: the unmutated tree) in a private temporary
// directory and runs both probes on it.
func measure(cfg probeConfig, m *Mutant) result {
	r := result{}
	if m != nil {
		r.M = *m
	}
	dir, err := os.MkdirTemp("", "killmatrix-")
	if err != nil {
		r.Err = err
		return r
	}
	defer os.RemoveAll(dir)
	var mutated []byte
	if m != nil {
		if mutated, err = mutate(cfg.root, *m); err != nil {
			r.Err = err
			return r
		}
	}
	ov, err := writeOverlay(cfg, dir, m, mutated)
	if err != nil {
		r.Err = err
		return r
	}
	r.Sweep = runSweep(cfg, dir, ov)
	if cfg.examples {
		r.Examples = runExamples(cfg, ov)
	}
	return r
}

func (r result) baselineProblem() error {
	switch {
	case r.Err != nil:
		return r.Err
	case r.Sweep.Err != nil:
		return r.Sweep.Err
	case r.Sweep.Killed:
		return fmt.Errorf("property %s fails at seed %d: %s", r.Sweep.Property, r.Sweep.Seed, r.Sweep.Detail)
	case r.Examples.Err != nil:
		return r.Examples.Err
	case r.Examples.Killed:
		return fmt.Errorf("example test %s fails", r.Examples.Failed)
	}
	return nil
}

// measureAll runs the mutants on jobs workers; results keep catalogue order.
func measureAll(cfg probeConfig, ms []Mutant, jobs int, progress io.Writer) []result {
	results := make([]result, len(ms))
	next := make(chan int)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		done int
	)
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = measure(cfg, &ms[i])
				mu.Lock()
				done++
				fmt.Fprintf(progress, "killmatrix: [%d/%d] %s: %s\n", done, len(ms), ms[i].Name, results[i].progressText())
				mu.Unlock()
			}
		}()
	}
	for i := range ms {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

func (r result) progressText() string {
	s := r.outcome().String()
	if r.Sweep.Killed {
		s += fmt.Sprintf(" (%s at seed %d: %s)", r.Sweep.Property, r.Sweep.Seed, oneLine(r.Sweep.Detail, 160))
	}
	if r.Examples.Killed {
		s += " examples: " + r.Examples.Failed
	}
	if err := r.err(); err != nil {
		s += ": " + err.Error()
	}
	return s
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + "…"
	}
	return s
}

// moduleRoot walks up from the working directory to the syncsim go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			if !strings.HasPrefix(string(b), "module "+modulePath+"\n") {
				return "", fmt.Errorf("%s/go.mod is not module %s; run killmatrix inside the syncsim module", dir, modulePath)
			}
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory; run killmatrix inside the syncsim module")
		}
		dir = parent
	}
}
