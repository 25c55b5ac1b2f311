package scenarios

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim"
)

// Case is one scenario case of a scenario file: the scenario, the expected
// block under its "----" line, and where it starts.
type Case struct {
	// Pos is "file:line" of the case's run directive.
	Pos      string
	Scenario Scenario
	// Expected is the block after "----" as datadriven reads it (each line
	// ending in "\n"), "" when the case has none.
	Expected string
}

// ParseError is a malformed scenario text. Pos is "file:line" of the line
// at fault (the run directive for errors about the whole case).
type ParseError struct {
	Pos string
	Err error
}

// Error returns "file:line: reason", the one line syncsim prints.
func (e *ParseError) Error() string { return e.Pos + ": " + e.Err.Error() }

// Unwrap returns the reason.
func (e *ParseError) Unwrap() error { return e.Err }

// Limits on what a scenario text may ask for. They bound the work a typo
// (or a fuzzer) can cause; real scenarios stay far below them.
const (
	// maxBackends bounds backends=: every backend is a simulated container.
	maxBackends = 64
	// maxExecWrites bounds writes= of one exec (one remote mutation of
	// that many paths). SPEC R4 needs 257.
	maxExecWrites = 4096
	// maxFileSize bounds size= of an exec: the container's own bound on
	// a file it writes (16 MiB, four times the default byte budgets).
	maxFileSize = 16 << 20
	// maxWriteFiles bounds files= of one host write: each file is a save
	// and a blocking point.
	maxWriteFiles = 1024
	// maxArmAfter bounds after= of an inject: no stream serves more
	// entries than a scenario's execs wrote.
	maxArmAfter = 1 << 20
)

// stringSource is the name datadriven gives text that is not a file.
const stringSource = "<string>"

// Parse reads one scenario case (Format's output, optionally followed by
// "----" and an expected block, which is ignored). Errors are *ParseError
// naming "<string>:line".
func Parse(text string) (Scenario, error) {
	cases, err := parseCases(stringSource, text)
	if err != nil {
		return Scenario{}, err
	}
	if len(cases) != 1 {
		return Scenario{}, &ParseError{Pos: stringSource + ":1", Err: fmt.Errorf("want exactly one %q case, found %d", runDirective, len(cases))}
	}
	return cases[0].Scenario, nil
}

// ParseFile reads every case of a scenario file. A malformed file is an
// error naming file:line (every bad case is reported, joined), never a
// panic; a file without a case is an error too.
func ParseFile(path string) ([]Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("scenarios: %w", err)
	}
	cases, err := parseCases(path, string(data))
	if err != nil {
		return nil, err
	}
	if len(cases) == 0 {
		return nil, &ParseError{Pos: path + ":1", Err: fmt.Errorf("no scenario: want a %q directive line", runDirective)}
	}
	return cases, nil
}

// parseCases splits text into cases with datadriven's own reader — the one
// TestCorpus replays with — so the command-line tool and the tests cannot
// disagree on where a case starts or ends. datadriven reports its own
// syntax errors through testing.TB.Fatal; collectTB turns them into errors.
// The text is handed over as a string (not the file path) so that a -rewrite
// flag on the command line can never make a parse write to the file.
func parseCases(source, text string) ([]Case, error) {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		// bufio.Scanner (inside datadriven) stops silently at a longer
		// line; the rest of the file would be dropped without a word.
		if len(l) >= bufio.MaxScanTokenSize {
			return nil, &ParseError{Pos: source + ":" + strconv.Itoa(i+1), Err: fmt.Errorf("line longer than %d bytes", bufio.MaxScanTokenSize-1)}
		}
	}
	markFlagsParsed.Do(func() {
		// NB: datadriven asks testing.Verbose, which panics until the
		// global flag set is parsed. A test binary has parsed it; a
		// command that has not gets it marked parsed with no arguments (a
		// later flag.Parse still reads os.Args).
		if !flag.Parsed() {
			_ = flag.CommandLine.Parse(nil)
		}
	})
	var cases []Case
	var errs []error
	tb := &collectTB{}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, stop := r.(stopParse); !stop {
					tb.record(fmt.Sprintf("datadriven failed: %v", r))
				}
			}
		}()
		datadriven.RunTestFromStringAny(tb, text, func(_ testing.TB, td *datadriven.TestData) string {
			pos := renameSource(td.Pos, source)
			s, err := parseTestData(td, pos, lines)
			if err != nil {
				errs = append(errs, err)
			} else {
				cases = append(cases, Case{Pos: pos, Scenario: s, Expected: td.Expected})
			}
			// Returning the expected block makes datadriven's own
			// comparison agree: this is a parse, not a replay.
			return td.Expected
		})
	}()
	for _, m := range tb.msgs {
		errs = append(errs, datadrivenError(renameSource(m, source), source))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return cases, nil
}

var markFlagsParsed sync.Once

// datadrivenError makes a message datadriven reported through Fatal a
// *ParseError: datadriven starts its messages with "file:line: " (some
// with a newline first); one that does not is placed at the file.
func datadrivenError(msg, source string) error {
	msg = strings.TrimSpace(msg)
	if rest, ok := strings.CutPrefix(msg, source+":"); ok {
		if i := strings.Index(rest, ": "); i > 0 {
			if _, err := strconv.Atoi(rest[:i]); err == nil {
				return &ParseError{Pos: source + ":" + rest[:i], Err: errors.New(rest[i+2:])}
			}
		}
	}
	return &ParseError{Pos: source, Err: errors.New(msg)}
}

// renameSource replaces datadriven's "<string>" source name by source.
func renameSource(s, source string) string {
	if source == stringSource {
		return s
	}
	return strings.ReplaceAll(s, stringSource+":", source+":")
}

// collectTB is the testing.TB that parseCases gives datadriven: it records
// Fatal/Error messages instead of failing a test, and stops the walk with
// a panic that parseCases recovers. datadriven only calls the methods
// defined here; the embedded nil interface makes any other call panic,
// which parseCases also turns into an error rather than a crash.
type collectTB struct {
	testing.TB
	msgs   []string
	failed bool
}

// stopParse unwinds datadriven after a Fatal, as runtime.Goexit does for a
// real test.
type stopParse struct{}

func (c *collectTB) record(msg string) { c.msgs, c.failed = append(c.msgs, msg), true }

func (c *collectTB) Helper()                      {}
func (c *collectTB) Log(...any)                   {}
func (c *collectTB) Logf(string, ...any)          {}
func (c *collectTB) Error(args ...any)            { c.record(fmt.Sprint(args...)) }
func (c *collectTB) Errorf(f string, args ...any) { c.record(fmt.Sprintf(f, args...)) }
func (c *collectTB) Fatal(args ...any)            { c.record(fmt.Sprint(args...)); panic(stopParse{}) }
func (c *collectTB) Fatalf(f string, args ...any) {
	c.record(fmt.Sprintf(f, args...))
	panic(stopParse{})
}
func (c *collectTB) Fail()         { c.failed = true }
func (c *collectTB) FailNow()      { c.failed = true; panic(stopParse{}) }
func (c *collectTB) Failed() bool  { return c.failed }
func (c *collectTB) Skipped() bool { return false }
func (c *collectTB) Name() string  { return "scenarios.Parse" }

// Run runs a datadriven "subtest" block in place (datadriven looks for
// exactly this signature).
func (c *collectTB) Run(_ string, f func(testing.TB)) { f(c) }

// parseTestData turns one datadriven case into a Scenario. pos is the
// case's "file:line"; lines is the whole file (nil when unknown), used to
// name the exact line of a bad input line.
func parseTestData(td *datadriven.TestData, pos string, lines []string) (Scenario, error) {
	if td.Cmd != runDirective {
		return Scenario{}, &ParseError{Pos: pos, Err: fmt.Errorf("unknown directive %q: a scenario case starts with %q", td.Cmd, FormatDirective(Scenario{Config: DefaultConfig}))}
	}
	s, err := parseDirective(td.CmdArgs)
	if err != nil {
		return Scenario{}, &ParseError{Pos: pos, Err: err}
	}
	file, dirLine := splitPos(pos)
	p := inputParser{file: file, line: inputStart(lines, dirLine), backends: s.Config.Backends}
	if td.Input == "" {
		return Scenario{}, &ParseError{Pos: pos, Err: errors.New(`missing the profile line ("profile off" for none)`)}
	}
	s.Profile, s.Ops, err = p.parse(strings.Split(td.Input, "\n"))
	if err != nil {
		return Scenario{}, err
	}
	s.Config.Steps = Steps(s.Ops)
	if err := s.Validate(); err != nil {
		return Scenario{}, &ParseError{Pos: pos, Err: err}
	}
	return s, nil
}

// splitPos splits datadriven's "file:line".
func splitPos(pos string) (string, int) {
	i := strings.LastIndexByte(pos, ':')
	if i < 0 {
		return pos, 0
	}
	n, err := strconv.Atoi(pos[i+1:])
	if err != nil {
		return pos, 0
	}
	return pos[:i], n
}

// inputStart returns the 1-based line of the first input line of the case
// whose directive is at dirLine. It follows datadriven's reader: a
// directive continues on the next line after a trailing `\`, and the
// input is trimmed, so leading blank lines are skipped.
func inputStart(lines []string, dirLine int) int {
	i := dirLine - 1 // 0-based index of the directive line
	if lines == nil || i < 0 || i >= len(lines) {
		return dirLine + 1
	}
	for i < len(lines) && strings.HasSuffix(strings.TrimSpace(lines[i]), `\`) {
		i++
	}
	i++
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	return i + 1
}

// parseDirective reads the run directive's key=value arguments.
func parseDirective(args []datadriven.CmdArg) (Scenario, error) {
	s := Scenario{Config: Config{Scheduler: "memory"}}
	seen := map[string]bool{}
	for _, a := range args {
		if !isDirectiveKey(a.Key) {
			return s, fmt.Errorf("unknown key %q in the %s directive (known: %s); the file may predate a change of the format", a.Key, runDirective, strings.Join(directiveKeys, " "))
		}
		if seen[a.Key] {
			return s, fmt.Errorf("key %s given twice", a.Key)
		}
		seen[a.Key] = true
		if len(a.Vals) != 1 || a.Vals[0] == "" {
			return s, fmt.Errorf("key %s needs exactly one value, as in %s=...", a.Key, a.Key)
		}
		if err := setDirectiveKey(&s, a.Key, a.Vals[0]); err != nil {
			return s, fmt.Errorf("%s=%s: %w", a.Key, a.Vals[0], err)
		}
	}
	for _, k := range []string{keySeed, keyBackends} {
		if !seen[k] {
			return s, fmt.Errorf("missing key %s in the %s directive", k, runDirective)
		}
	}
	return s, nil
}

func isDirectiveKey(k string) bool {
	if k == keyNoRuntimeID || k == keySyncNone || k == keyMaxWall || k == keyBackendIDs {
		return true // optional: printed only when set
	}
	for _, d := range directiveKeys {
		if d == k {
			return true
		}
	}
	return false
}

func setDirectiveKey(s *Scenario, key, v string) error {
	c := &s.Config
	var err error
	switch key {
	case keySeed:
		s.Seed, err = strconv.ParseUint(v, 10, 64)
		if err != nil {
			return errors.New("not an unsigned 64-bit number")
		}
	case keyBackends:
		c.Backends, err = intIn(v, 1, maxBackends)
	case keyScheduler:
		if !validScheduler(v) {
			return errors.New("unknown scheduler (want memory, sqlite or none)")
		}
		c.Scheduler = v
	case keyLocal:
		switch v {
		case "memory":
			c.LocalStore = "" // the default, canonically empty
		case "sqlite":
			c.LocalStore = v
		default:
			return errors.New("unknown local store (want memory or sqlite)")
		}
	case keyBug:
		if v == bugNone {
			c.Bug = ""
			return nil
		}
		if _, ok := BugByName(v); !ok {
			return fmt.Errorf("unknown planted bug (want %s or one of: %s)", bugNone, bugNames())
		}
		c.Bug = v
	case keyInitial:
		c.Retry.InitialDelay, err = nonNegativeDuration(v)
	case keyMax:
		c.Retry.MaxDelay, err = nonNegativeDuration(v)
	case keyAttempts:
		c.Retry.MaxAttempts, err = intIn(v, 0, int(^uint(0)>>1))
	case keyMaxEntries:
		c.MaxEntries, err = intIn(v, 0, int(^uint(0)>>1))
	case keyMaxBytes:
		var n int
		n, err = intIn(v, 0, int(^uint(0)>>1))
		c.MaxBytes = int64(n)
	case keyPushEntries:
		c.PushEntries, err = intIn(v, 0, int(^uint(0)>>1))
	case keyPushBytes:
		var n int
		n, err = intIn(v, 0, int(^uint(0)>>1))
		c.PushBytes = int64(n)
	case keyBackendIDs:
		c.BackendIDs = v // checked against backends= by Validate
	case keyMaxWall:
		c.MaxWallTime, err = nonNegativeDuration(v)
	case keyNoRuntimeID:
		if _, err := parseBackend(v, maxBackends); err != nil {
			return err
		}
		c.NoRuntimeID = v // checked against backends= by Validate
	case keySyncNone:
		if _, err := parseBackend(v, maxBackends); err != nil {
			return err
		}
		c.SyncNone = v // checked against backends= by Validate
	case keyStrategy:
		if _, err := sim.DrawStrategy(v, 0); err != nil {
			return errors.New("unknown strategy (want uniform, pct or mix)")
		}
		c.Strategy = strategyValue(v)
	}
	return err
}

func bugNames() string {
	names := make([]string, len(Bugs))
	for i, b := range Bugs {
		names[i] = b.Name
	}
	return strings.Join(names, " ")
}

func intIn(v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, errors.New("not an integer")
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("out of range [%d, %d]", lo, hi)
	}
	return n, nil
}

func nonNegativeDuration(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, errors.New(`not a duration (write it as Go does: 1s, 1m0s, 150ms)`)
	}
	if d < 0 {
		return 0, errors.New("negative duration")
	}
	return d, nil
}

// inputParser reads a case's input lines: the profile, then the ops.
type inputParser struct {
	file     string
	line     int // file line of the first input line
	backends int
}

func (p inputParser) errAt(i int, format string, args ...any) error {
	return &ParseError{Pos: p.file + ":" + strconv.Itoa(p.line+i), Err: fmt.Errorf(format, args...)}
}

func (p inputParser) parse(lines []string) (faults.Profile, []Op, error) {
	var profile faults.Profile
	var ops []Op
	sawProfile := false
	group, groupAt := -1, 0 // index in ops of the open group, its line
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if !sawProfile {
			if fields[0] != profileWord {
				return profile, nil, p.errAt(i, "the first input line must be the swarm profile (%q, or \"profile off\"), got %q", "profile kind=value ...", line)
			}
			if len(fields) == 1 {
				return profile, nil, p.errAt(i, `empty profile: write "profile off" for no faults`)
			}
			pr, err := faults.ParseProfile(strings.Join(fields[1:], " "))
			if err != nil {
				return profile, nil, p.errAt(i, "%v", err)
			}
			profile, sawProfile = pr, true
			continue
		}
		switch fields[0] {
		case OpGroup.String():
			if group >= 0 {
				return profile, nil, p.errAt(i, "groups do not nest (group opened at line %d has no end yet)", p.line+groupAt)
			}
			if len(fields) > 1 {
				return profile, nil, p.errAt(i, "unexpected %q after group", fields[1])
			}
			ops = append(ops, Op{Kind: OpGroup})
			group, groupAt = len(ops)-1, i
			continue
		case scheduleWord:
			if group < 0 {
				return profile, nil, p.errAt(i, "a schedule belongs inside a group, as its last line")
			}
			if ops[group].Schedule != nil {
				return profile, nil, p.errAt(i, "the group already has a schedule")
			}
			ps, err := parseSchedule(fields[1:])
			if err != nil {
				return profile, nil, p.errAt(i, "%v", err)
			}
			ops[group] = ops[group].withLanding(ps)
			continue
		case "end":
			if group < 0 {
				return profile, nil, p.errAt(i, "end without a group")
			}
			if len(fields) > 1 {
				return profile, nil, p.errAt(i, "unexpected %q after end", fields[1])
			}
			group = -1
			continue
		}
		op, err := parseOp(fields, p.backends)
		if err != nil {
			return profile, nil, p.errAt(i, "%v", err)
		}
		if group >= 0 {
			if ops[group].Schedule != nil {
				return profile, nil, p.errAt(i, "the schedule must be the group's last line, after its ops")
			}
			if !op.Kind.InGroup() {
				return profile, nil, p.errAt(i, "%s cannot run inside a group (only exec, write, retry, advance, host-restart and cancel can)", op.Kind)
			}
			if op.Clean {
				return profile, nil, p.errAt(i, "host-restart clean cannot run inside a group: a restart there crashes the host mid-operation")
			}
			ops[group].Ops = append(ops[group].Ops, op)
			continue
		}
		ops = append(ops, op)
	}
	if !sawProfile {
		return profile, nil, p.errAt(0, `missing the profile line ("profile off" for none)`)
	}
	if group >= 0 {
		return profile, nil, p.errAt(groupAt, "group has no end")
	}
	return profile, ops, nil
}

// parseOp reads one op line in Op.String form (group and end are the
// caller's). Optional words may come in any order; each at most once.
func parseOp(fields []string, backends int) (Op, error) {
	kind, ok := opKindByName(fields[0])
	if !ok || kind == OpGroup {
		return Op{}, fmt.Errorf("unknown op %q (known: %s end)", fields[0], strings.Join(opNames[:], " "))
	}
	op := Op{Kind: kind}
	args := fields[1:]
	switch kind {
	case OpAdvance:
		if len(args) != 1 {
			return op, errors.New("advance takes one duration, as in advance 5s")
		}
		d, err := time.ParseDuration(args[0])
		if err != nil {
			return op, fmt.Errorf("advance %s: not a duration (write it as Go does: 500ms, 5s, 1m0s)", args[0])
		}
		if d <= 0 {
			return op, fmt.Errorf("advance %s: needs a positive duration", args[0])
		}
		op.Dur = d
		return op, nil
	case OpCancel:
		if len(args) != 0 {
			return op, fmt.Errorf("unexpected %q: cancel takes no arguments", args[0])
		}
		return op, nil
	case OpHostRestart:
		if len(args) == 1 && args[0] == "clean" {
			op.Clean = true
			return op, nil
		}
		if len(args) != 0 {
			return op, fmt.Errorf("unexpected %q: host-restart takes no argument but clean", args[0])
		}
		return op, nil
	}
	if len(args) == 0 {
		return op, fmt.Errorf("%s needs a backend, as in %s b0", kind, kind)
	}
	b, err := parseBackend(args[0], backends)
	if err != nil {
		return op, err
	}
	op.Backend = b
	seen := map[string]bool{}
	for _, a := range args[1:] {
		word, val, hasVal := strings.Cut(a, "=")
		if seen[word] {
			return op, fmt.Errorf("%q given twice", word)
		}
		seen[word] = true
		switch {
		case kind == OpExec && !hasVal && (word == "wait" || word == "defer"):
			if seen["wait"] && seen["defer"] {
				return op, errors.New("exec is either wait or defer")
			}
			if word == "defer" {
				op.Mode = Defer
			}
		case kind == OpExec && !hasVal && word == "staged":
			op.Staged = true
		case kind == OpExec && hasVal && word == "size":
			n, err := intIn(val, 1, maxFileSize)
			if err != nil {
				return op, fmt.Errorf("size=%s: %v", val, err)
			}
			op.Size = n
		case kind == OpExec && hasVal && word == "writes":
			n, err := intIn(val, 0, maxExecWrites)
			if err != nil {
				return op, fmt.Errorf("writes=%s: %v", val, err)
			}
			op.Writes = n
		case kind == OpRetry && !hasVal && (word == "early" || word == "due"):
			if seen["early"] && seen["due"] {
				return op, errors.New("retry is either early or due")
			}
			op.Early = word == "early"
		case kind == OpWrite && !hasVal && word == "delete":
			op.Delete = true
		case kind == OpWrite && hasVal && word == "size":
			n, err := intIn(val, 1, maxFileSize)
			if err != nil {
				return op, fmt.Errorf("size=%s: %v", val, err)
			}
			op.Size = n
		case kind == OpWrite && hasVal && word == "files":
			n, err := intIn(val, 1, maxWriteFiles)
			if err != nil {
				return op, fmt.Errorf("files=%s: %v", val, err)
			}
			if n > 1 { // one file is the plain write
				op.Files = n
			}
		case kind == OpLoseIdentity && !hasVal && word == "none":
			op.None = true
		case kind == OpPlant && hasVal && word == "attempt":
			n, err := intIn(val, 0, maxPlantAttempt)
			if err != nil {
				return op, fmt.Errorf("attempt=%s: %v", val, err)
			}
			op.Attempt = n
		case kind == OpPlant && !hasVal && fenceWord(word) != sim.FenceCurrent:
			if op.Fence != sim.FenceCurrent {
				return op, fmt.Errorf("plant names one fence, got %s and %s", op.Fence, word)
			}
			op.Fence = fenceWord(word)
		case kind == OpPlant && hasVal && word == "target":
			// "+K" counts from the backend's fetch cursor, "K" from the
			// baseline.
			k, ahead := strings.CutPrefix(val, "+")
			n, err := intIn(k, 1, maxPlantTarget)
			if err == nil && strings.HasPrefix(k, "+") {
				err = errors.New(`one "+" at most`) // Atoi would take a second sign
			}
			if err != nil {
				return op, fmt.Errorf("target=%s: %v", val, err)
			}
			op.Target, op.TargetAhead = n, ahead
		case kind == OpInject && !hasVal:
			if op.Fault != faults.NoFault {
				return op, fmt.Errorf("inject arms one fault, got %s and %s", op.Fault, word)
			}
			k, err := faults.ParseKind(word)
			if err != nil {
				return op, fmt.Errorf("unexpected %q in inject (usage: %s)", a, opUsage[kind])
			}
			op.Fault = k
		case kind == OpInject && hasVal && word == "on":
			site, err := faults.ParseSite(val)
			if err != nil {
				return op, fmt.Errorf("on=%s: %v", val, err)
			}
			op.On = site
		case kind == OpInject && hasVal && word == "after":
			n, err := intIn(val, 0, maxArmAfter)
			if err != nil {
				return op, fmt.Errorf("after=%s: %v", val, err)
			}
			op.After = n
		default:
			return op, fmt.Errorf("unexpected %q in %s (usage: %s)", a, kind, opUsage[kind])
		}
	}
	if kind == OpPlant && !seen["attempt"] {
		return op, fmt.Errorf("plant needs an attempt (usage: %s)", opUsage[kind])
	}
	if kind == OpInject {
		if op.Fault == faults.NoFault || op.On == "" {
			return op, fmt.Errorf("inject needs a fault kind and a call site (usage: %s)", opUsage[kind])
		}
		if err := op.Armed().Check(); err != nil {
			return op, err
		}
	}
	return op, nil
}

// maxPlantAttempt bounds a planted intent's attempt, so a typo cannot ask
// for a backoff exponent nobody meant.
const maxPlantAttempt = math.MaxInt

// maxPlantTarget bounds a planted target's entry number: far past any log
// a scenario makes, which then means {currentRev, null}.
const maxPlantTarget = 1 << 20

// opUsage is the one-line usage of each op, for error messages.
var opUsage = map[OpKind]string{
	OpExec:         "exec bN wait|defer writes=N [staged | size=BYTES]",
	OpWrite:        "write bN [delete | files=N size=BYTES]",
	OpRetry:        "retry bN early|due",
	OpPull:         "pull bN",
	OpCrash:        "crash bN",
	OpRestart:      "restart bN",
	OpLoseIdentity: "lose-identity bN [none]",
	OpTruncate:     "truncate bN",
	OpInject:       "inject bN <fault kind> on=" + siteChoices() + " [after=K]",
	OpPlant:        "plant bN attempt=K [stale | no-runtime] [target=E | target=+E]",
}

// fenceWord is the fence a plant op's word names (sim.Fence.String), or
// sim.FenceCurrent when it names none: the file leaves the current fence
// unsaid.
func fenceWord(word string) sim.Fence {
	for _, f := range [...]sim.Fence{sim.FenceStale, sim.FenceNone} {
		if word == f.String() {
			return f
		}
	}
	return sim.FenceCurrent
}

// siteChoices lists the call sites an inject may name, as a|b|c.
func siteChoices() string {
	names := make([]string, 0, len(faults.Sites()))
	for _, s := range faults.Sites() {
		names = append(names, string(s))
	}
	return strings.Join(names, "|")
}

// parseBackend reads "bN" and checks it against the run's backends.
func parseBackend(s string, backends int) (int, error) {
	if !strings.HasPrefix(s, "b") {
		return 0, fmt.Errorf("want a backend bN, got %q", s)
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || s[1:] != strconv.Itoa(n) {
		return 0, fmt.Errorf("want a backend bN, got %q", s)
	}
	if n < 0 || n >= backends {
		return 0, fmt.Errorf("backend %s out of range: the run has backends=%d (b0..b%d)", s, backends, backends-1)
	}
	return n, nil
}
