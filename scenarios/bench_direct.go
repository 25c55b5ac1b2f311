package scenarios

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/sim/ledger"
	"github.com/syncsim/syncsim/workspace"
	"github.com/syncsim/syncsim/workspace/planttest"
)

// The direct runner is the floor the harness's overhead is measured
// against: the same ops applied straight to a workspace.Workspace over
// faults.Containers (same profile, same per-backend fault streams), with no
// actor runtime, no model, no trace, no record reading and no property
// checks. Groups run their members one after another; a host restart in a
// group comes after them. The alarm is the scheduler.AlarmRule applied on
// every advance, as a production host would. It keeps the liveness tail
// (faults off, alarms drained, push and pull of every backend) so that both
// sides do the same work.

// maxDirectAlarmRounds bounds the alarm firings of one direct advance.
const maxDirectAlarmRounds = 1024

// timeSource is the direct runner's clock: what the SUT reads, and how the
// runner moves it.
type timeSource interface {
	clock.Clock
	// moveTo sets the time to t (never earlier than Now).
	moveTo(t time.Time)
}

// manualClock is the smallest clock.Clock the SUT can run on: Now returns
// a time the owner sets. Only Now, Since and Until work; the timer methods
// and Sleep panic, because the system under test only reads Now. It has no
// lock: Set must not race with Now (the direct runner is one goroutine).
type manualClock struct {
	now time.Time
}

var _ clock.Clock = (*manualClock)(nil)

// newManualClock returns a clock reading t.
func newManualClock(t time.Time) *manualClock { return &manualClock{now: t} }

// Set moves the clock to t.
func (c *manualClock) Set(t time.Time) { c.now = t }

func (c *manualClock) moveTo(t time.Time) { c.Set(t) }

// Now returns the time last Set.
func (c *manualClock) Now() time.Time { return c.now }

// Since is Now().Sub(t).
func (c *manualClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// Until is t.Sub(Now()).
func (c *manualClock) Until(t time.Time) time.Duration { return t.Sub(c.Now()) }

func manualOnly(method string) string {
	return "scenarios: manualClock." + method + " is not supported: the system under test only reads Now"
}

// After panics; see manualClock.
func (c *manualClock) After(time.Duration) <-chan time.Time { panic(manualOnly("After")) }

// AfterFunc panics; see manualClock.
func (c *manualClock) AfterFunc(time.Duration, func()) *clock.Timer { panic(manualOnly("AfterFunc")) }

// Sleep panics; see manualClock.
func (c *manualClock) Sleep(time.Duration) { panic(manualOnly("Sleep")) }

// Tick panics; see manualClock.
func (c *manualClock) Tick(time.Duration) <-chan time.Time { panic(manualOnly("Tick")) }

// Ticker panics; see manualClock.
func (c *manualClock) Ticker(time.Duration) *clock.Ticker { panic(manualOnly("Ticker")) }

// Timer panics; see manualClock.
func (c *manualClock) Timer(time.Duration) *clock.Timer { panic(manualOnly("Timer")) }

// WithDeadline panics; see manualClock.
func (c *manualClock) WithDeadline(context.Context, time.Time) (context.Context, context.CancelFunc) {
	panic(manualOnly("WithDeadline"))
}

// WithTimeout panics; see manualClock.
func (c *manualClock) WithTimeout(context.Context, time.Duration) (context.Context, context.CancelFunc) {
	panic(manualOnly("WithTimeout"))
}

// mockTime drives benbjohnson/clock's Mock by Add, as a test written
// against clock.Mock would: every move costs the Mock's real 1 ms sleep.
type mockTime struct{ *clock.Mock }

func (m mockTime) moveTo(t time.Time) {
	if d := t.Sub(m.Now()); d > 0 {
		m.Add(d)
	}
}

// directStats is what one direct run did.
type directStats struct {
	SimDuration time.Duration
	// Moves counts the times the runner moved the clock.
	Moves int
}

// directRun applies s's ops straight to the SUT with a manualClock (see
// the comment at the top of this file). It returns an error only when the
// run could not be set up; the SUT's own errors are outcomes, not failures.
func directRun(s Scenario) (directStats, error) {
	return runDirect(s, newManualClock(sim.Epoch))
}

// directRunMock is directRun with time driven through clock.Mock's Add.
func directRunMock(s Scenario) (directStats, error) {
	m := clock.NewMock()
	m.Set(sim.Epoch)
	return runDirect(s, mockTime{m})
}

type directRunner struct {
	s          Scenario
	clk        timeSource
	ctx        context.Context
	names      []string
	containers []*faults.Container
	profile    faults.Profile
	sched      *scheduler.Memory
	store      *workspace.MemoryStore
	ws         *workspace.Workspace
	budget     *workspace.Budget
	rule       scheduler.AlarmRule
	seq        int
	moves      int
}

func runDirect(s Scenario, clk timeSource) (directStats, error) {
	if err := s.Validate(); err != nil {
		return directStats{}, err
	}
	d := &directRunner{
		s: s, clk: clk, ctx: context.Background(), profile: s.Profile,
		sched: scheduler.NewMemory(), store: workspace.NewMemoryStore(),
	}
	attempts := s.Config.Retry.MaxAttempts
	if attempts == 0 {
		attempts = 5 // SPEC 2.1 default, as the workspace resolves it
	}
	d.rule = scheduler.AlarmRule{MaxAttempts: attempts}
	d.budget = s.Config.budget()
	for i := range s.Config.Backends {
		name := sim.BackendID(s.Config.backendIDs(), i)
		d.names = append(d.names, name)
		d.containers = append(d.containers,
			faults.NewContainer(name, faults.NoHooks{}, sim.Stream(s.Seed, sim.FaultsLabel(sim.BackendLabel(i))), &d.profile))
	}
	if err := d.start(); err != nil {
		return directStats{}, err
	}
	for _, op := range s.Ops {
		if err := d.apply(op); err != nil {
			return directStats{}, err
		}
	}
	if err := d.tail(); err != nil {
		return directStats{}, err
	}
	for _, c := range d.containers {
		c.ReleaseRecord() // as the host does at Close, so both sides reuse record chunks
	}
	return directStats{SimDuration: d.clk.Now().Sub(sim.Epoch), Moves: d.moves}, nil
}

// start builds a workspace over the durable stores: a host start.
func (d *directRunner) start() error {
	backends := make([]workspace.BackendConfig, len(d.containers))
	for i, c := range d.containers {
		backends[i] = workspace.BackendConfig{ID: d.names[i], Backend: c}
	}
	var mutant planttest.Set
	if d.s.Config.Bug != "" {
		bug, _ := BugByName(d.s.Config.Bug)
		mutant = bug.mutant
	}
	var sched scheduler.Scheduler = d.sched
	if d.s.Config.Scheduler == schedulerNone {
		sched = nil
	}
	ws, err := planttest.New(workspace.Options{
		Backends: backends, Clock: d.clk, Scheduler: sched, Retry: d.s.Config.Retry,
		Store: d.store, PushBatch: d.s.Config.pushBudget(),
	}, mutant)
	if err != nil {
		return fmt.Errorf("scenarios: direct runner: %w", err)
	}
	d.ws = ws
	d.rule = scheduler.AlarmRule{MaxAttempts: d.rule.MaxAttempts}
	return nil
}

func (d *directRunner) apply(op Op) error {
	switch op.Kind {
	case OpExec, OpWrite, OpRetry, OpPull:
		return d.member(op)
	case OpAdvance:
		return d.advance(op.Dur)
	case OpCrash:
		d.containers[op.Backend].Crash(1)
	case OpRestart:
		d.containers[op.Backend].Restart()
	case OpLoseIdentity:
		d.containers[op.Backend].LoseIdentity(op.None)
	case OpTruncate:
		d.containers[op.Backend].TruncateLog()
	case OpInject:
		return d.containers[op.Backend].Arm(op.Armed())
	case OpPlant:
		fetch, err := d.store.FetchCursor(d.names[op.Backend])
		if err != nil {
			return err
		}
		return d.sched.Schedule(d.ctx, plantedIntent(d.names[op.Backend], d.containers[op.Backend], fetch, op, d.clk.Now()))
	case OpHostRestart:
		return d.restartHost()
	case OpGroup:
		restart := false
		for _, m := range op.Ops {
			if m.Kind == OpHostRestart {
				restart = true
				continue
			}
			if m.Kind == OpCancel {
				continue // the direct runner cancels nothing
			}
			if m.Kind == OpAdvance {
				if err := d.advance(m.Dur); err != nil {
					return err
				}
				continue
			}
			if err := d.member(m); err != nil {
				return err
			}
		}
		if restart {
			return d.restartHost()
		}
	default:
		return fmt.Errorf("scenarios: direct runner: unknown op kind %d", op.Kind)
	}
	return nil
}

// member runs one exec, write or retry to completion.
func (d *directRunner) member(op Op) error {
	d.seq++
	b := d.names[op.Backend]
	switch op.Kind {
	case OpExec:
		mode := workspace.SyncWait
		if op.Mode == Defer {
			mode = workspace.SyncDefer
		}
		command := "write "
		if op.Staged {
			command = "stage "
		}
		command += strconv.Itoa(op.Writes)
		if op.Size > 0 {
			command += " " + strconv.Itoa(op.Size)
		}
		_, _ = d.ws.Exec(d.ctx, command, workspace.ExecOptions{Backend: b, Sync: mode})
	case OpWrite:
		path := "/host/" + strconv.Itoa(d.seq)
		for k := range max(op.Files, 1) {
			p := path
			if k > 0 {
				p += "." + strconv.Itoa(k)
			}
			_ = d.ws.WriteFile(b, p, ledger.AppendHostContent(nil, p, op.Size))
		}
	case OpRetry:
		if !op.Early {
			in, ok, err := d.sched.Get(d.ctx, b)
			if err != nil {
				return err
			}
			if ok && in.NotBefore.After(d.clk.Now()) {
				if err := d.advance(in.NotBefore.Sub(d.clk.Now())); err != nil {
					return err
				}
			}
		}
		_, _ = d.ws.RetryPendingSync(d.ctx, b, d.budget)
	case OpPull:
		_, _ = d.ws.Pull(d.ctx, b)
	}
	return nil
}

// advance moves time forward by dur, stopping at every alarm on the way to
// retry the due backends.
func (d *directRunner) advance(dur time.Duration) error {
	end := d.clk.Now().Add(dur)
	for range maxDirectAlarmRounds {
		intents, err := d.sched.List(d.ctx)
		if err != nil {
			return err
		}
		at, ok := d.rule.Next(intents)
		if !ok || at.After(end) {
			d.move(end)
			return nil
		}
		if err := d.fire(at, intents); err != nil {
			return err
		}
	}
	return fmt.Errorf("scenarios: direct runner: %d alarms in one advance", maxDirectAlarmRounds)
}

// fire moves to the alarm at and retries every backend due then.
func (d *directRunner) fire(at time.Time, intents []scheduler.Intent) error {
	now := d.clk.Now()
	if at.After(now) {
		d.move(at)
		now = at
	}
	due := d.rule.Due(intents, now)
	var handed []scheduler.Intent
	for _, in := range intents {
		if _, ok := slices.BinarySearch(due, in.Backend); ok {
			handed = append(handed, in)
		}
	}
	for _, b := range due {
		_, _ = d.ws.RetryPendingSync(d.ctx, b, d.budget)
	}
	if len(handed) > 0 {
		after, err := d.sched.List(d.ctx)
		if err != nil {
			return err
		}
		d.rule = d.rule.Settle(handed, after)
	}
	return nil
}

func (d *directRunner) move(t time.Time) {
	if t.After(d.clk.Now()) {
		d.clk.moveTo(t)
		d.moves++
	}
}

func (d *directRunner) restartHost() error {
	for _, c := range d.containers {
		c.DropConnections()
	}
	return d.start()
}

// tail is the liveness tail without its checks: faults off, every alarm
// drained, then a pull, push and pull of every backend.
func (d *directRunner) tail() error {
	for _, c := range d.containers {
		c.SetFaults(false)
	}
	for range maxDirectAlarmRounds {
		intents, err := d.sched.List(d.ctx)
		if err != nil {
			return err
		}
		at, ok := d.rule.Next(intents)
		if !ok {
			break
		}
		if err := d.fire(at, intents); err != nil {
			return err
		}
	}
	maxDelay := d.s.Config.Retry.MaxDelay
	if maxDelay == 0 {
		maxDelay = time.Minute
	}
	if err := d.advance(maxDelay); err != nil {
		return err
	}
	for _, b := range d.names {
		_, _ = d.ws.Pull(d.ctx, b)
		_, _ = d.ws.Push(d.ctx, b)
		_, _ = d.ws.Pull(d.ctx, b)
	}
	return nil
}
