package schedulertest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syncsim/syncsim/scheduler"
)

// Instance is one fresh, empty scheduler handed to a single check.
type Instance struct {
	// Scheduler is the implementation under test. If it also implements
	// scheduler.Lister, List is checked as well.
	Scheduler scheduler.Scheduler
	// Reopen, if set, declares the implementation durable: it must release
	// the current scheduler and return a new one over the same stored
	// state, the way a restarted host would open it. Checks use only the
	// returned scheduler afterwards.
	Reopen func() (scheduler.Scheduler, error)
	// Close, if set, releases the instance after the check (the last
	// scheduler Reopen returned, if any).
	Close func() error
}

// Opener returns a fresh, empty Instance. Check calls it once per check, so
// no check sees another's intents.
type Opener func() (Instance, error)

// Options describes what the implementation under test declares about
// itself. The zero value asks for everything.
type Options struct {
	// TimePrecision is the granularity at which NotBefore survives a round
	// trip: the written and the stored time are compared after truncating
	// both to it, so a store that keeps finer time than declared passes.
	// Zero means exact to the nanosecond. A store coarser than the
	// millisecond passes here but not in the whole system: the retry
	// delays are whole milliseconds, so a retried intent can be stored
	// back unchanged and the host's alarm rule settles it for good
	// (scheduler.AlarmRule; scenarios.Check reports liveness-intents).
	TimePrecision time.Duration
	// NoEmptyBackend skips the backend id "" (SPEC 1.3 allows it: an
	// fs-only workspace serialises on "").
	NoEmptyBackend bool
	// NoList declares that the store does not implement scheduler.Lister.
	// The workspace does not need List, but a host does: the simulated host
	// (scenarios.Check) and scheduler.NewWaker list the intents to set the
	// alarm. Without NoList a store that lacks List fails the Lister check.
	NoList bool
}

// check is one named conformance property, run on a fresh instance.
type check struct {
	name string
	run  func(c *checker)
}

// checks lists every property, in the order Run and Check report them.
// The functions live in checks_*.go, one concern per file.
var checks = []check{
	{"GetEmpty", checkGetEmpty},
	{"ScheduleThenGet", checkScheduleThenGet},
	{"UpsertReplaces", checkUpsertReplaces},
	{"ClearIdempotent", checkClearIdempotent},
	{"RoundTrip", checkRoundTrip},
	{"BackendsIsolated", checkBackendsIsolated},
	{"NoAliasing", checkNoAliasing},
	{"Durable", checkDurable},
	{"Concurrent", checkConcurrent},
	{"Lister", checkLister},
	{"ListSorted", checkListSorted},
}

// Run runs every check as a named subtest, each on a fresh instance from
// open. Use it from a test of your own implementation:
//
//	func TestConformance(t *testing.T) {
//		schedulertest.Run(t, func() (schedulertest.Instance, error) {
//			return schedulertest.Instance{Scheduler: mine.New()}, nil
//		}, schedulertest.Options{})
//	}
func Run(t *testing.T, open Opener, opts Options) {
	t.Helper()
	for _, ch := range checks {
		t.Run(ch.name, func(t *testing.T) {
			for _, err := range runCheck(ch, open, opts) {
				t.Error(err)
			}
		})
	}
}

// Check runs every check in turn and returns one error listing every
// misbehaviour found, like testing/fstest.TestFS; nil means the
// implementation conforms. It needs no *testing.T, so it also serves
// runnable examples and command-line probes.
func Check(open Opener, opts Options) error {
	var errs []error
	for _, ch := range checks {
		for _, err := range runCheck(ch, open, opts) {
			errs = append(errs, fmt.Errorf("%s: %w", ch.name, err))
		}
	}
	return errors.Join(errs...)
}

// runCheck opens a fresh instance, runs one check on it and closes it.
// A panic in the implementation becomes a finding, not a crashed suite.
func runCheck(ch check, open Opener, opts Options) (errs []error) {
	inst, err := open()
	if err != nil {
		return []error{fmt.Errorf("open: %w", err)}
	}
	c := &checker{ctx: context.Background(), inst: inst, s: inst.Scheduler, opts: opts}
	defer func() {
		if r := recover(); r != nil {
			c.errorf("panic: %v", r)
		}
		if inst.Close != nil {
			if err := inst.Close(); err != nil {
				c.errorf("close: %v", err)
			}
		}
		errs = c.errs
	}()
	ch.run(c)
	c.hintPrecision()
	return c.errs
}

// checker carries one check's instance and collects its findings.
type checker struct {
	ctx  context.Context
	inst Instance
	s    scheduler.Scheduler
	opts Options
	errs []error
	// truncatedTo is the coarsest precision some NotBefore that came back
	// wrong matched once truncated to it, for a hint (0: none). same runs
	// on the concurrent check's workers too, so it is guarded by hintMu.
	hintMu      sync.Mutex
	truncatedTo time.Duration
}

func (c *checker) errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf(format, args...))
}

// schedule stores in, reporting a failure; it returns false if it failed.
func (c *checker) schedule(in scheduler.Intent) bool {
	if err := c.s.Schedule(c.ctx, in); err != nil {
		c.errorf("Schedule(%s): %v", Describe(in), err)
		return false
	}
	return true
}

func (c *checker) clear(backend string) {
	if err := c.s.Clear(c.ctx, backend); err != nil {
		c.errorf("Clear(%q): %v", backend, err)
	}
}

// expect checks that Get(backend) returns want (or nothing when want is
// nil), labelled with what led there.
func (c *checker) expect(label, backend string, want *scheduler.Intent) {
	got, ok, err := c.s.Get(c.ctx, backend)
	switch {
	case err != nil:
		c.errorf("%s: Get(%q): %v", label, backend, err)
	case want == nil && ok:
		c.errorf("%s: Get(%q) = %s, want no intent", label, backend, Describe(got))
	case want == nil:
		if !got.Equal(scheduler.Intent{}) {
			c.errorf("%s: Get(%q) with ok=false returned non-zero intent %s", label, backend, Describe(got))
		}
	case !ok:
		c.errorf("%s: Get(%q) found no intent, want %s", label, backend, Describe(*want))
	case !c.same(*want, got):
		c.errorf("%s: Get(%q) = %s, want %s", label, backend, Describe(got), Describe(*want))
	}
}

// same compares intents field by field, optional fields' presence
// included, NotBefore as an instant at the declared precision.
func (c *checker) same(want, got scheduler.Intent) bool {
	if truncated(want, c.opts.TimePrecision).Equal(truncated(got, c.opts.TimePrecision)) {
		return true
	}
	for _, p := range hintPrecisions {
		if p > c.opts.TimePrecision && truncated(want, p).Equal(truncated(got, p)) {
			c.hintMu.Lock()
			c.truncatedTo = max(c.truncatedTo, p)
			c.hintMu.Unlock()
			break
		}
	}
	return false
}

// truncated is in with NotBefore truncated to p (0: as it is).
func truncated(in scheduler.Intent, p time.Duration) scheduler.Intent {
	in.NotBefore = in.NotBefore.Truncate(p)
	return in
}

// hintPrecisions are the precisions a store commonly keeps NotBefore at.
var hintPrecisions = []time.Duration{time.Microsecond, time.Millisecond, time.Second}

// hintPrecision adds, once per check, the likely cause of NotBefore
// mismatches: a store that keeps coarser time than declared fails every
// check that compares intents, and the fix is one option.
func (c *checker) hintPrecision() {
	if c.truncatedTo > 0 {
		c.errorf("hint: the intents that came back wrong match once NotBefore is truncated to %v; "+
			"if that is the store's precision, declare schedulertest.Options{TimePrecision: %s}", c.truncatedTo, durationLiteral(c.truncatedTo))
	}
}

// durationLiteral spells d as Go source.
func durationLiteral(d time.Duration) string {
	switch d {
	case time.Second:
		return "time.Second"
	case time.Millisecond:
		return "time.Millisecond"
	case time.Microsecond:
		return "time.Microsecond"
	}
	return fmt.Sprintf("%d", int64(d))
}

// lister returns the scheduler as a Lister, if it is one.
func (c *checker) lister() (scheduler.Lister, bool) {
	l, ok := c.s.(scheduler.Lister)
	return l, ok
}

// Describe prints an intent with every field visible: backend and runtime
// quoted, absent fields spelled "absent", NotBefore to the nanosecond.
// Intent.String is built for traces and hides the last two distinctions.
func Describe(in scheduler.Intent) string {
	var b strings.Builder
	fmt.Fprintf(&b, "{backend %q runtime ", in.Backend)
	if in.RuntimeID == nil {
		b.WriteString("absent")
	} else {
		fmt.Fprintf(&b, "%q", *in.RuntimeID)
	}
	b.WriteString(" target ")
	if in.TargetCursor == nil {
		b.WriteString("absent")
	} else {
		b.WriteString(in.TargetCursor.String())
	}
	fmt.Fprintf(&b, " attempt %d notBefore %s}", in.Attempt, in.NotBefore.Format(time.RFC3339Nano))
	return b.String()
}
