package scenarios

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/workspace"
	"pgregory.net/rapid"
)

// scenarioCmp compares scenarios: a nil and an empty op list are the same
// scenario, and Profile is compared as the comparable value it is.
var scenarioCmp = []cmp.Option{
	cmpopts.EquateEmpty(),
	cmp.Comparer(func(a, b faults.Profile) bool { return a == b }),
}

// checkRoundTrip asserts Parse(Format(s)) == s, and that printing again
// gives the same text.
func checkRoundTrip(t interface {
	Helper()
	Fatalf(string, ...any)
}, s Scenario) {
	t.Helper()
	text := Format(s)
	got, err := Parse(text)
	if err != nil {
		t.Fatalf("Parse(Format(s)) failed: %v\n%s", err, text)
	}
	if d := cmp.Diff(s, got, scenarioCmp...); d != "" {
		t.Fatalf("Parse(Format(s)) != s (-want +got):\n%s\n%s", d, text)
	}
	if again := Format(got); again != text {
		t.Fatalf("Format is not stable:\n%s\nthen\n%s", text, again)
	}
}

// TestRoundTripGenerated checks the round trip on what the generator
// draws: FromSeed under rapid-drawn seeds and configs.
func TestRoundTripGenerated(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := Config{
			Backends:  rapid.IntRange(1, 4).Draw(t, "backends"),
			Steps:     rapid.IntRange(0, 40).Draw(t, "steps"),
			Scheduler: rapid.SampledFrom([]string{"memory", "sqlite"}).Draw(t, "scheduler"),
			Bug:       rapid.SampledFrom(append([]string{""}, bugNameList()...)).Draw(t, "bug"),
		}
		checkRoundTrip(t, FromSeed(rapid.Uint64().Draw(t, "seed"), c))
	})
}

// TestRoundTripBuilt checks the round trip on scenarios built op by op,
// with values the generator never draws (long durations, odd profile
// probabilities, empty groups, many backends).
func TestRoundTripBuilt(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkRoundTrip(t, drawScenario(t))
	})
}

func bugNameList() []string {
	out := make([]string, len(Bugs))
	for i, b := range Bugs {
		out[i] = b.Name
	}
	return out
}

func drawScenario(t *rapid.T) Scenario {
	backends := rapid.IntRange(1, maxBackends).Draw(t, "backends")
	s := Scenario{
		Seed: rapid.Uint64().Draw(t, "seed"),
		Config: Config{
			Backends:  backends,
			Scheduler: rapid.SampledFrom([]string{"memory", "sqlite", "none"}).Draw(t, "scheduler"),
			Bug:       rapid.SampledFrom(append([]string{""}, bugNameList()...)).Draw(t, "bug"),
			Retry: workspace.RetryOptions{
				InitialDelay: time.Duration(rapid.Int64Range(0, 1<<50).Draw(t, "initial")),
				MaxDelay:     time.Duration(rapid.Int64Range(0, 1<<50).Draw(t, "max")),
				MaxAttempts:  rapid.IntRange(0, 1000).Draw(t, "attempts"),
			},
			MaxEntries: rapid.IntRange(0, 1000).Draw(t, "maxEntries"),
			Strategy:   rapid.SampledFrom([]string{"", sim.StrategyUniform, sim.StrategyPCT}).Draw(t, "strategy"),
		},
	}
	for _, k := range faults.Kinds() {
		if rapid.Bool().Draw(t, "on "+k.String()) {
			s.Profile.Set(k, rapid.Float64Range(1e-9, 1).Draw(t, k.String()))
		}
	}
	s.Ops = rapid.SliceOfN(rapid.Custom(func(t *rapid.T) Op { return drawOp(t, backends, false) }), 0, 12).Draw(t, "ops")
	s.Config.Steps = Steps(s.Ops)
	return s
}

func drawOp(t *rapid.T, backends int, inGroup bool) Op {
	kinds := []OpKind{OpExec, OpWrite, OpRetry, OpHostRestart, OpPull}
	if !inGroup {
		kinds = append(kinds, OpAdvance, OpCrash, OpRestart, OpLoseIdentity, OpTruncate, OpGroup, OpInject, OpPlant)
	}
	op := Op{Kind: rapid.SampledFrom(kinds).Draw(t, "kind")}
	switch op.Kind {
	case OpExec:
		op.Backend = rapid.IntRange(0, backends-1).Draw(t, "backend")
		op.Mode = rapid.SampledFrom([]Mode{Wait, Defer}).Draw(t, "mode")
		op.Writes = rapid.IntRange(0, maxExecWrites).Draw(t, "writes")
		op.Staged = rapid.Bool().Draw(t, "staged")
		if !op.Staged && rapid.Bool().Draw(t, "sized") {
			op.Size = rapid.IntRange(1, maxFileSize).Draw(t, "size")
		}
	case OpRetry:
		op.Backend = rapid.IntRange(0, backends-1).Draw(t, "backend")
		op.Early = rapid.Bool().Draw(t, "early")
	case OpLoseIdentity:
		op.Backend = rapid.IntRange(0, backends-1).Draw(t, "backend")
		op.None = rapid.Bool().Draw(t, "none")
	case OpWrite:
		op.Backend = rapid.IntRange(0, backends-1).Draw(t, "backend")
		if rapid.Bool().Draw(t, "delete") {
			op.Delete = true
		} else {
			if n := rapid.IntRange(1, maxWriteFiles).Draw(t, "files"); n > 1 {
				op.Files = n
			}
			if rapid.Bool().Draw(t, "sized") {
				op.Size = rapid.IntRange(1, maxFileSize).Draw(t, "size")
			}
		}
	case OpCrash, OpRestart, OpTruncate, OpPull:
		op.Backend = rapid.IntRange(0, backends-1).Draw(t, "backend")
	case OpAdvance:
		op.Dur = time.Duration(rapid.Int64Range(1, 1<<50).Draw(t, "dur"))
	case OpGroup:
		op.Ops = rapid.SliceOfN(rapid.Custom(func(t *rapid.T) Op { return drawOp(t, backends, true) }), 0, 4).Draw(t, "members")
		if rapid.Bool().Draw(t, "scheduled") {
			names := rapid.SliceOfN(rapid.SampledFrom([]string{"exec.b0", "tick", "retry.b1/2", "alarm.b0"}), 0, 20)
			op.Schedule = append([]string{}, names.Draw(t, "schedule")...)
		}
		if hasMember(op, OpHostRestart) {
			switch rapid.IntRange(0, 2).Draw(t, "cut-kind") {
			case 1:
				op.Cut = rapid.IntRange(1, maxScheduleLen).Draw(t, "cut")
			case 2:
				op.CutLocal = rapid.IntRange(1, maxScheduleLen).Draw(t, "cut-local")
			}
		}
		if hasMember(op, OpCancel) && rapid.Bool().Draw(t, "cancel") {
			op.Cancel = sim.CancelPoint{
				Decision: rapid.IntRange(1, maxScheduleLen).Draw(t, "cancel-at"),
				Actor:    rapid.SampledFrom([]string{"exec.b0", "retry.b1/2", "alarm.b0"}).Draw(t, "cancel-actor"),
			}
		}
	case OpInject:
		op = drawInject(t, backends, maxArmAfter)
	case OpPlant:
		op.Backend = rapid.IntRange(0, backends-1).Draw(t, "backend")
		op.Attempt = rapid.IntRange(0, maxPlantAttempt).Draw(t, "attempt")
		op.Fence = rapid.SampledFrom([]sim.Fence{sim.FenceCurrent, sim.FenceStale, sim.FenceNone}).Draw(t, "fence")
		if rapid.Bool().Draw(t, "targeted") {
			op.Target = rapid.IntRange(1, maxPlantTarget).Draw(t, "target")
			op.TargetAhead = rapid.Bool().Draw(t, "ahead")
		}
	}
	return op
}

// drawInject draws a valid inject op: a kind that can be armed, one of
// the sites that kind is armable at, and after= only on a stream site.
func drawInject(t *rapid.T, backends, maxAfter int) Op {
	var armable []faults.Kind
	for _, k := range faults.Kinds() {
		if len(faults.ArmSites(k)) > 0 {
			armable = append(armable, k)
		}
	}
	op := Op{Kind: OpInject, Backend: rapid.IntRange(0, backends-1).Draw(t, "backend")}
	op.Fault = rapid.SampledFrom(armable).Draw(t, "fault")
	op.On = rapid.SampledFrom(faults.ArmSites(op.Fault)).Draw(t, "on")
	if op.On.Streamed() {
		op.After = rapid.IntRange(0, maxAfter).Draw(t, "after")
	}
	return op
}

// validRun is a directive line the error cases below start from.
const validRun = "run seed=1 backends=2 scheduler=memory bug=none initial=1s max=1m0s attempts=5 max-entries=0\n"

// TestParseErrors checks that every kind of stale or broken text is an
// error naming the line at fault — never a panic.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"unknown op", validRun + "profile off\nexec b0 wait writes=1\nfrobnicate b0\n", `<string>:4: unknown op "frobnicate"`},
		{"removed config key", "run seed=1 backends=2 budget=3\nprofile off\n", `<string>:1: unknown key "budget"`},
		{"bad duration in directive", "run seed=1 backends=2 initial=5 seconds\nprofile off\n", `<string>:1: initial=5: not a duration`},
		{"bad advance", validRun + "profile off\n\n# a comment\nadvance 5sec\n", `<string>:5: advance 5sec: not a duration`},
		{"zero advance", validRun + "profile off\nadvance 0s\n", `<string>:3: advance 0s: needs a positive duration`},
		{"backend out of range", validRun + "profile off\nexec b2 wait writes=1\n", `<string>:3: backend b2 out of range: the run has backends=2`},
		{"not a backend", validRun + "profile off\nwrite x0\n", `<string>:3: want a backend bN, got "x0"`},
		{"malformed profile token", validRun + "profile crash=0.1 transport-connect\n", `<string>:2: faults: profile token "transport-connect": want kind=value`},
		{"unknown fault kind", validRun + "profile meteor=0.5\n", `<string>:2: faults: profile token "meteor=0.5": unknown fault kind`},
		{"profile above 1", validRun + "profile crash=2\n", `value must be a number in (0,1]`},
		{"empty profile", validRun + "profile\n", `<string>:2: empty profile`},
		{"missing profile", validRun + "exec b0 wait writes=1\n", `<string>:2: the first input line must be the swarm profile`},
		{"no input", validRun, `<string>:1: missing the profile line`},
		{"group without end", validRun + "profile off\ngroup\n  exec b0 wait writes=1\n", `<string>:3: group has no end`},
		{"nested group", validRun + "profile off\ngroup\ngroup\nend\n", `<string>:4: groups do not nest`},
		{"fault op in group", validRun + "profile off\ngroup\n  crash b0\nend\n", `<string>:4: crash cannot run inside a group`},
		{"end without group", validRun + "profile off\nend\n", `<string>:3: end without a group`},
		{"extra word", validRun + "profile off\nretry b0 early late\n", `<string>:3: unexpected "late" in retry`},
		{"wait and defer", validRun + "profile off\nexec b0 wait defer\n", `<string>:3: exec is either wait or defer`},
		{"sized delete", validRun + "profile off\nwrite b0 delete size=10\n", `a delete writes no content (drop size= or delete)`},
		{"write size zero", validRun + "profile off\nwrite b0 size=0\n", `size=0`},
		{"inject without site", validRun + "profile off\ninject b0 crash\n", `<string>:3: inject needs a fault kind and a call site`},
		{"inject without kind", validRun + "profile off\ninject b0 on=fetch\n", `<string>:3: inject needs a fault kind and a call site`},
		{"inject two kinds", validRun + "profile off\ninject b0 crash restart on=fetch\n", `<string>:3: inject arms one fault`},
		{"inject unknown kind", validRun + "profile off\ninject b0 meteor on=fetch\n", `<string>:3: unexpected "meteor" in inject`},
		{"inject unknown site", validRun + "profile off\ninject b0 crash on=disk\n", `<string>:3: on=disk: faults: unknown call site "disk"`},
		{"inject kind not at site", validRun + "profile off\ninject b0 settle-failure on=fetch\n", `<string>:3: faults: settle-failure cannot be armed on=fetch (only on settle)`},
		{"inject store kind", validRun + "profile off\ninject b0 store-get on=fetch\n", `cannot be armed at a call`},
		{"inject after on fetch", validRun + "profile off\ninject b0 transport-post-dispatch on=fetch after=1\n", `after= applies to on=stream and on=events only`},
		{"inject negative after", validRun + "profile off\ninject b0 transport-mid-stream on=stream after=-1\n", `after=-1: out of range`},
		{"inject in group", validRun + "profile off\ngroup\n  inject b0 crash on=fetch\nend\n", `<string>:4: inject cannot run inside a group`},
		{"plant target zero", validRun + "profile off\nplant b0 attempt=1 target=0\n", `target=0: out of range`},
		{"plant target ahead zero", validRun + "profile off\nplant b0 attempt=1 target=+0\n", `target=+0: out of range`},
		{"plant target sign only", validRun + "profile off\nplant b0 attempt=1 target=+\n", `target=+:`},
		{"plant target negative", validRun + "profile off\nplant b0 attempt=1 target=-2\n", `target=-2:`},
		{"plant target twice signed", validRun + "profile off\nplant b0 attempt=1 target=++1\n", `target=++1:`},
		{"plant two fences", validRun + "profile off\nplant b0 attempt=1 stale no-runtime\n", `plant names one fence, got stale and no-runtime`},
		{"plant fence twice", validRun + "profile off\nplant b0 attempt=1 no-runtime no-runtime\n", `"no-runtime" given twice`},
		{"negative writes", validRun + "profile off\nexec b0 wait writes=-1\n", `<string>:3: writes=-1: out of range`},
		{"unknown bug", "run seed=1 backends=1 bug=off-by-two\nprofile off\n", `<string>:1: bug=off-by-two: unknown planted bug`},
		{"unknown scheduler", "run seed=1 backends=1 scheduler=redis\nprofile off\n", `<string>:1: scheduler=redis: unknown scheduler`},
		{"too many backends", "run seed=1 backends=100000\nprofile off\n", `<string>:1: backends=100000: out of range`},
		{"missing seed", "run backends=1\nprofile off\n", `<string>:1: missing key seed`},
		{"key twice", "run seed=1 seed=2 backends=1\nprofile off\n", `<string>:1: key seed given twice`},
		{"key without value", "run seed backends=1\nprofile off\n", `<string>:1: key seed needs exactly one value`},
		{"unknown directive", "replay seed=1\nprofile off\n", `<string>:1: unknown directive "replay"`},
		{"datadriven syntax", "run seed=(1, backends=1\nprofile off\n", `<string>:1: cannot parse directive`},
		{"two cases", validRun + "profile off\n----\n\n" + validRun + "profile off\n", `want exactly one "run" case, found 2`},
		{"empty", "", `want exactly one "run" case, found 0`},
		{"unknown strategy", "run seed=1 backends=1 strategy=dfs\nprofile off\n", `<string>:1: strategy=dfs: unknown strategy`},
		{"schedule outside group", validRun + "profile off\nschedule exec.b0\n", `<string>:3: a schedule belongs inside a group`},
		{"schedule not last", validRun + "profile off\ngroup\n  exec b0 wait writes=0\n  schedule exec.b0\n  exec b1 wait writes=0\nend\n", `<string>:6: the schedule must be the group's last line`},
		{"two schedules", validRun + "profile off\ngroup\n  schedule tick\n  schedule tick\nend\n", `<string>:5: the group already has a schedule`},
		{"bad schedule count", validRun + "profile off\ngroup\n  schedule tick*0\nend\n", `<string>:4: tick*0: count out of range`},
		{"bad actor name", validRun + "profile off\ngroup\n  schedule exec,b0\nend\n", `<string>:4: actor name "exec,b0" in schedule`},
		{"cut without restart", validRun + "profile off\ngroup\n  exec b0 wait writes=0\n  schedule exec.b0 cut=3\nend\n", `cut= and cut-local= need a host-restart in the group`},
		{"cut-local without restart", validRun + "profile off\ngroup\n  exec b0 wait writes=0\n  schedule exec.b0 cut-local=3\nend\n", `cut= and cut-local= need a host-restart in the group`},
		{"cut and cut-local", validRun + "profile off\ngroup\n  exec b0 wait writes=0\n  host-restart\n  schedule cut=2 cut-local=3\nend\n", `a restart cuts once`},
		{"cut-local zero", validRun + "profile off\ngroup\n  exec b0 wait writes=0\n  host-restart\n  schedule cut-local=0\nend\n", `cut-local=0: out of range`},
		{"cancel without cancel", validRun + "profile off\ngroup\n  exec b0 wait writes=0\n  schedule exec.b0 cancel=exec.b0@2\nend\n", `cancel= needs a cancel in the group`},
		{"cancel without decision", validRun + "profile off\ngroup\n  exec b0 wait writes=0\n  cancel\n  schedule cancel=exec.b0\nend\n", `want cancel=NAME@DECISION`},
		{"cancel at zero", validRun + "profile off\ngroup\n  exec b0 wait writes=0\n  cancel\n  schedule cancel=exec.b0@0\nend\n", `cancel=exec.b0@0: decision`},
		{"two cancels", validRun + "profile off\ngroup\n  exec b0 wait writes=0\n  cancel\n  schedule cancel=exec.b0@1 cancel=exec.b0@2\nend\n", `"cancel=" given twice`},
		{"huge schedule", validRun + "profile off\ngroup\n  schedule tick*65536 tick\nend\n", `schedule longer than 65536 choice points`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.text)
			if err == nil {
				t.Fatalf("Parse accepted:\n%s", tc.text)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q\ndoes not contain %q", err, tc.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
		})
	}
}

// TestParseFile checks that every bad case of a file is reported with its
// file:line, that good cases carry their position and expected block, and
// that a file without a case is an error.
func TestParseFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	text := "# comment\n" + validRun + "profile off\nexec b1 defer writes=2\n----\nok\n\n" +
		"run seed=2 backends=1 \\\n  attempts=3\n\nprofile crash=0.5\n  advance 1s\n"
	if err := os.WriteFile(good, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cases, err := ParseFile(good)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 || cases[0].Pos != good+":2" || cases[0].Expected != "ok\n" || cases[1].Pos != good+":8" {
		t.Fatalf("cases: %+v", cases)
	}
	if got := cases[1].Scenario; got.Config.Retry.MaxAttempts != 3 || got.Ops[0].Dur != time.Second || got.Profile != faults.Only(faults.Crash, 0.5) {
		t.Fatalf("second case: %+v", got)
	}

	bad := filepath.Join(dir, "bad.txt")
	text = validRun + "profile off\nexec b0 wait writes=1\n----\nok\n\n" +
		validRun + "profile off\nexec b9 wait writes=1\n----\n\n" +
		"run seed=1 backends=1\n\n\nprofile off\nadvance never\n"
	if err := os.WriteFile(bad, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ParseFile(bad)
	if err == nil {
		t.Fatal("ParseFile accepted a broken file")
	}
	for _, want := range []string{bad + ":9: backend b9 out of range", bad + ":16: advance never: not a duration"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q\ndoes not contain %q", err, want)
		}
	}

	empty := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(empty, []byte("# only a comment\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseFile(empty); err == nil || !strings.Contains(err.Error(), empty+":1: no scenario") {
		t.Fatalf("empty file: %v", err)
	}
	if _, err := ParseFile(filepath.Join(dir, "missing.txt")); err == nil {
		t.Fatal("ParseFile of a missing file succeeded")
	}
}

// TestParseLiberal checks what Parse accepts beyond Format's exact form:
// optional words in any order, defaults for omitted ones, comments and
// indentation.
func TestParseLiberal(t *testing.T) {
	s, err := Parse("run backends=1 seed=7\n\n  profile off\n# note\nexec b0 writes=2 defer\nretry b0\n  advance 1m30s\ninject b0 after=3 on=stream transport-mid-stream\ninject b0 on=events after=0 crash\n")
	if err != nil {
		t.Fatal(err)
	}
	want := Scenario{Seed: 7, Config: Config{Backends: 1, Scheduler: "memory", Steps: 5}, Ops: []Op{
		{Kind: OpExec, Mode: Defer, Writes: 2},
		{Kind: OpRetry},
		{Kind: OpAdvance, Dur: 90 * time.Second},
		{Kind: OpInject, Fault: faults.TransportMidStream, On: faults.SiteStream, After: 3},
		{Kind: OpInject, Fault: faults.Crash, On: faults.SiteEvents},
	}}
	if d := cmp.Diff(want, s, scenarioCmp...); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
}
