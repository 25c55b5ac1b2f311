package scenarios

import (
	"strconv"
	"strings"

	"github.com/syncsim/syncsim/sim"
)

// The scenario text format: one datadriven test case per scenario, so that
// corpus files are golden files that `go test -rewrite` regenerates.
//
//	# free comment lines
//	run seed=42 backends=2 scheduler=memory local=memory bug=none initial=1s max=1m0s attempts=5 max-entries=0 max-bytes=0 push-entries=0 push-bytes=0 strategy=mix
//	profile crash=0.1 transport-connect=0.05
//	exec b0 wait writes=2
//	group
//	  exec b0 wait writes=1
//	  retry b0 early
//	  schedule exec.b0*3 retry.b0 exec.b0
//	end
//	advance 5s
//	----
//	<what Observe prints for the run>
//
// The directive line carries the Config and the seed, every key always
// printed (bug=none is the correct code; initial, max and attempts of 0
// take the workspace defaults; max-entries=0 and max-bytes=0 are the default
// batch budget, push-entries=0 and push-bytes=0 the default push batch
// (older files without them mean that too); strategy=mix is the default and may be left out, as older
// files do). A group may end with a schedule line (schedule.go).
// Config.Steps is a generator knob, not part of a scenario: it is not
// printed and Parse sets it to Steps of the ops. The first input
// line is the swarm profile in faults.Profile's String form ("profile off"
// for none), then one op per line in Op.String form. Blank lines and lines
// starting with # inside the input are ignored; indentation is for people.
// As in every datadriven file, a case's input runs up to its "----" line:
// in a file of several cases each one but the last needs it (Format prints
// the case alone, without it).

// runDirective is the datadriven command of a scenario case.
const runDirective = "run"

// profileWord starts the first input line.
const profileWord = "profile"

// bugNone is how the directive line spells the correct code (Bug "").
const bugNone = "none"

// Directive keys, in the order Format prints them.
const (
	keySeed        = "seed"
	keyBackends    = "backends"
	keyScheduler   = "scheduler"
	keyLocal       = "local"
	keyBug         = "bug"
	keyInitial     = "initial"
	keyMax         = "max"
	keyAttempts    = "attempts"
	keyMaxEntries  = "max-entries"
	keyMaxBytes    = "max-bytes"
	keyPushEntries = "push-entries"
	keyPushBytes   = "push-bytes"
	keyStrategy    = "strategy"
	keyNoRuntimeID = "no-runtime-id"
	keySyncNone    = "sync-none"
	keyMaxWall     = "max-wall"
	keyBackendIDs  = "ids"
)

var directiveKeys = []string{keySeed, keyBackends, keyScheduler, keyLocal, keyBug, keyInitial, keyMax, keyAttempts, keyMaxEntries, keyMaxBytes, keyPushEntries, keyPushBytes, keyStrategy}

// Format prints s in the scenario language: the directive line, the
// profile line and one line per op (a group spans several lines), each
// ending in a newline. Parse reads it back: Parse(Format(s)) equals s for
// every valid s whose Config.Steps is Steps(s.Ops).
func Format(s Scenario) string {
	var b strings.Builder
	b.WriteString(FormatDirective(s))
	b.WriteByte('\n')
	b.WriteString(profileWord + " " + s.Profile.String() + "\n")
	for _, o := range s.Ops {
		b.WriteString(o.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// FormatDirective prints the directive line of s (no newline): the seed
// and the Config.
func FormatDirective(s Scenario) string {
	c := s.Config
	bug := c.Bug
	if bug == "" {
		bug = bugNone
	}
	vals := map[string]string{
		keySeed:        strconv.FormatUint(s.Seed, 10),
		keyBackends:    strconv.Itoa(c.Backends),
		keyScheduler:   c.Scheduler,
		keyLocal:       localName(c.LocalStore),
		keyBug:         bug,
		keyInitial:     c.Retry.InitialDelay.String(),
		keyMax:         c.Retry.MaxDelay.String(),
		keyAttempts:    strconv.Itoa(c.Retry.MaxAttempts),
		keyMaxEntries:  strconv.Itoa(c.MaxEntries),
		keyMaxBytes:    strconv.FormatInt(c.MaxBytes, 10),
		keyPushEntries: strconv.Itoa(c.PushEntries),
		keyPushBytes:   strconv.FormatInt(c.PushBytes, 10),
		keyStrategy:    strategyName(c.Strategy),
	}
	parts := []string{runDirective}
	for _, k := range directiveKeys {
		parts = append(parts, k+"="+vals[k])
	}
	// The optional keys are printed only when set: files written before
	// them mean none, and stay as they are.
	if c.MaxWallTime != 0 {
		parts = append(parts, keyMaxWall+"="+c.MaxWallTime.String())
	}
	if c.NoRuntimeID != "" {
		parts = append(parts, keyNoRuntimeID+"="+c.NoRuntimeID)
	}
	if c.SyncNone != "" {
		parts = append(parts, keySyncNone+"="+c.SyncNone)
	}
	if c.BackendIDs != "" {
		parts = append(parts, keyBackendIDs+"="+c.BackendIDs)
	}
	return strings.Join(parts, " ")
}

// strategyName spells the strategy on the directive line: the default ""
// is "mix". A file without the key (older ones) means mix too.
func strategyName(v string) string {
	if v == "" {
		return sim.StrategyMix
	}
	return v
}

// strategyValue is the inverse of strategyName: "mix" is canonically "".
func strategyValue(v string) string {
	if v == sim.StrategyMix {
		return ""
	}
	return v
}

// localName spells the local store on the directive line: the default ""
// is "memory", so that every key is always printed.
func localName(v string) string {
	if v == "" {
		return "memory"
	}
	return v
}
