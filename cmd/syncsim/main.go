// Command syncsim sweeps, replays, shrinks and explains deterministic
// simulation runs of the durable sync-retry system; see doc.go.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
)

// Exit codes, the same for every subcommand.
const (
	exitOK    = 0 // every property held (and every expectation was met)
	exitFail  = 1 // a property failed, or a file's expectation was not met
	exitUsage = 2 // a usage or input error, reported in one line on stderr
)

func main() {
	// NB: scenarios.ParseFile reads files with datadriven's runner, which
	// calls testing.Verbose, which panics unless the global flag set was
	// parsed. syncsim parses its own flag sets, so the global one is marked
	// parsed with no arguments: its flags (datadriven's, the scenarios
	// suites') keep their defaults.
	flag.CommandLine.Parse(nil)
	setGCPercent()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// gcPercent is the collector's target the command runs with unless GOGC
// says otherwise. A run's live heap is a few megabytes and a sweep
// allocates about half a megabyte per scenario, so at Go's default of 100
// the collector starts every few scenarios and takes about a fifth of a
// sweep's CPU; at 400 a sweep runs about a quarter faster (syncsim bench).
// Nothing a run decides depends on it.
const gcPercent = 400

// heapPerCore is the soft memory limit the command sets per core
// (GOMAXPROCS) unless GOMEMLIMIT says otherwise. GOGC alone lets the heap
// reach five times its live size at the last collection, and the live size
// of the rare run with big files (a few hundred kilobytes to megabytes
// each, held by the store, the remote and the model) is about 35 MB: a
// sweep's peak then depended on how many such runs it met, and on two
// workers meeting one at once — 150 MB over 10,000 seeds, 300 MB over
// 100,000 (peak_heap in syncsim bench). The limit makes the collector run
// earlier only while the heap is near it, so a sweep's peak no longer grows
// with its length, and ordinary runs, whose heap never gets there, keep
// the speed of GOGC=400. A run holding more than the limit live makes the
// collector work harder (Go caps it at half the CPU), never fail.
//
// It was 64 MiB: the sweeps' heap then sat at the limit so often that
// the collector ran at every few megabytes allocated, and with it the
// scavenger. The gain is small: in six paired runs of a 4,000-seed
// `syncsim run`, 128 MiB a core cost a median 1.2% less CPU than 64 (one
// `syncsim bench` each read 841 and 767 scenarios per CPU second, inside
// this machine's noise), and the peak still did not grow with the sweep's
// length (168 against 209 MB over 10,000 and 100,000 seeds). 256 MiB a
// core let it grow 1.42 times, near the bench's bar of 1.5.
const heapPerCore = 128 << 20

// setGCPercent applies gcPercent and the memory limit, each unless the
// environment sets its own (GOGC, GOMEMLIMIT): a user who sets one gets
// exactly what they asked for.
func setGCPercent() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(int64(heapPerCore) * int64(runtime.GOMAXPROCS(0)))
	}
}

// env is what a subcommand writes to. Subcommands never touch os.Stdout or
// os.Stderr directly, so tests call run in-process.
type env struct {
	stdout, stderr io.Writer
	// json: the arguments ask for -json, so a usage or input error also
	// prints a JSON object on stdout (a script reading stdout gets one).
	json bool
}

// command is one subcommand: its name, a one-line summary for help, and
// the function that runs it and returns the exit code.
type command struct {
	name    string
	usage   string // the synopsis after "syncsim "
	summary string
	run     func(e env, args []string) int
}

// commands is filled in an init function because help lists commands.
var commands []command

func init() {
	commands = []command{
		{"run", "run [flags]", "sweep seeds on all cores and report failures", cmdRun},
		{"replay", "replay [flags] FILE\n       syncsim replay -seed S [flags]", "run one scenario file or seed with its full trace", cmdReplay},
		{"shrink", "shrink [flags] FILE [-o OUT]\n       syncsim shrink -seed S [flags] [-o OUT]", "shrink a failing scenario to a short file", cmdShrink},
		{"explain", "explain [flags] FILE -html OUT.html\n       syncsim explain -seed S [flags] -html OUT.html", "render a scenario's run as a self-contained HTML timeline", cmdExplain},
		{"hunt", "hunt [-bug NAME|all] [-seeds N] [-windows K] [-seed S] [flags]", "find, shrink and time every planted bug, in one or K seed windows", cmdHunt},
		{"merge", "merge [-json] SHARD.json...", "combine the -json summaries of the shards of one sweep", cmdMerge},
		{"bench", "bench [-json | -benchfmt] [-quick] [-rounds N] [-round-seeds N] [-seed S] [-seeds N]\n       syncsim bench -strategies [-seeds N] [-seed S] [-bug B] [-json]\n       syncsim bench -by-property [-seeds N] [-seed S] [-json]", "measure the harness's speed, overhead and memory on this machine, bugs found per CPU minute by strategy, or each checker's cost", cmdBench},
		{"bugs", "bugs [-json]", "list the planted-bug catalogue (name<TAB>class)", cmdBugs},
		{"properties", "properties [-json]", "list the properties a run judges: name, SPEC section, basis, where judged, what it checks", cmdProperties},
		{"help", "help [SUBCOMMAND]", "show help for syncsim or a subcommand", cmdHelp},
	}
}

// run dispatches args (without the program name) and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	e := env{stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		return usageError(e, "", "no subcommand given")
	}
	switch args[0] {
	case "-h", "-help", "--help":
		return cmdHelp(e, nil)
	}
	e.json = wantsJSON(args[1:])
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(e, args[1:])
		}
	}
	return usageError(e, "", fmt.Sprintf("unknown subcommand %q", args[0]))
}

// usageError prints one line naming what was wrong and where to read more,
// and returns exitUsage. sub is "" for the top level.
func usageError(e env, sub, reason string) int {
	prefix, more := "syncsim", "syncsim help"
	if sub != "" {
		prefix, more = "syncsim "+sub, "syncsim help "+sub
	}
	fmt.Fprintf(e.stderr, "%s: %s (run '%s')\n", prefix, reason, more)
	jsonError(e, reason)
	return exitUsage
}

// inputError prints one line for an input the user gave that cannot be
// used (a missing file, a broken scenario) and returns exitUsage.
func inputError(e env, sub string, err error) int {
	fmt.Fprintf(e.stderr, "syncsim %s: %s\n", sub, oneLine(err.Error()))
	jsonError(e, oneLine(err.Error()))
	return exitUsage
}

// errorJSON is the one object -json prints when the input was unusable.
type errorJSON struct {
	Error    string `json:"error"`
	ExitCode int    `json:"exit_code"`
}

// jsonError prints errorJSON on stdout when -json was asked for.
func jsonError(e env, reason string) {
	if e.json {
		writeJSON(e.stdout, errorJSON{Error: reason, ExitCode: exitUsage})
	}
}

// wantsJSON reports whether -json (or -json=true) comes before any "--".
func wantsJSON(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-json", "--json", "-json=true", "--json=true":
			return true
		}
	}
	return false
}
