package sim

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/syncsim/syncsim/workspace"
)

// DefaultMaxSwitches is the step bound of a new Runtime: the most scheduling
// decisions one Run may take before it stops with ErrMaxSwitches.
const DefaultMaxSwitches = 1_000_000

var (
	// ErrMaxSwitches: a Run took more scheduling decisions than its bound
	// (SetMaxSwitches) although its actors kept finishing (a livelock that
	// finishes nothing is ErrLivelock, much sooner).
	ErrMaxSwitches = errors.New("sim: actor runtime hit its switch limit (SetMaxSwitches)")
	// ErrActorGoexit: an actor ended through runtime.Goexit that the runtime
	// did not ask for (t.FailNow or t.SkipNow called inside an actor).
	ErrActorGoexit = errors.New("sim: actor exited through runtime.Goexit")
	// ErrNotActor: a Gate that is not open was waited on outside any actor,
	// where nothing could ever open it.
	ErrNotActor = errors.New("sim: Gate.Wait outside an actor on a gate that is not open would block forever")
	// ErrKilled: a Gate that is not open was waited on by an actor being
	// unwound by Kill (from a deferred call).
	ErrKilled = errors.New("sim: Gate.Wait while the actor is being killed")
)

// ActorPanicError reports a panic inside an actor. Error omits the stack
// (addresses differ between runs and would break trace determinism).
type ActorPanicError struct {
	Actor string
	Value any    // what the actor panicked with
	Stack []byte // the panicking goroutine's stack, for a human
}

// Error names the actor and what it panicked with; the stack is not part
// of it (Stack is for a human).
func (e *ActorPanicError) Error() string {
	return fmt.Sprintf("sim: actor %q panicked: %v", e.Actor, e.Value)
}

// Unwrap returns the panic value when it is an error.
func (e *ActorPanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// Runtime runs the system under test's goroutines as cooperative actors:
// exactly one of them (or the driver) runs at any moment, and at every
// blocking point the runtime picks who runs next (its Strategy decides
// whenever more than one actor can run).
//
// The contract, in the order a driver meets it:
//
//  1. Go registers actors. They start only when scheduled.
//  2. Run schedules until no actor is runnable, then returns the names of
//     actors still parked on a gate (a deadlock, unless something outside the
//     runtime, such as a sim timer, opens their gate before the next Run).
//  3. SUT-facing fakes call Block at each blocking point (a backend call, a
//     scheduler store call, a clock read that matters) and the SUT's FIFO
//     parks on gates from NewGate. Block yields: the runtime picks the next
//     actor among the runnable ones, the caller included, ordered by spawn
//     sequence; when more than one is runnable (a choice point) its Strategy
//     picks, drawing only from the Run's stream (Prepare). Nothing else
//     decides the order, so one seed gives one interleaving under any
//     GOMAXPROCS and with -race.
//  4. Kill (a host restart) unwinds every live actor at its blocking point
//     with runtime.Goexit: defers run, nothing after the blocking point does.
//
// Run, Kill and SetMaxSwitches belong to the driver and must not be called
// while Run is active. Go, Block, Actor, Stop and the gates may be called by
// the running actor or by the driver outside Run; never from a goroutine the
// runtime does not schedule. Any real blocking inside an actor (a channel
// receive, a mutex held by a parked actor, clock.Sleep) hangs the run: the
// baton is never passed on.
type Runtime struct {
	base     *rand.Rand // the stream of a Run nobody prepared
	strat    Strategy
	prepare  func() (*rand.Rand, []string)
	active   Strategy // this Run's: strat, or a replay of a written schedule
	choices  []string // local names chosen at this Run's choice points
	buf      []string // runnable local names handed to the strategy
	window   map[string]int
	live     []*actor // every actor not yet finished, by spawn sequence
	runnable []*actor // new or ready actors, by spawn sequence
	current  *actor   // the actor holding the baton; nil: the driver
	seq      uint64

	running  bool // inside Run
	killing  bool // inside Kill
	stopReq  bool
	err      error // ends the Run in progress
	killErr  error // a panic while unwinding, re-raised by Kill
	switches int
	maxSw    int
	// quiet counts the decisions since an actor last finished or the Run
	// began; past livelockAt the Run ends as a livelock (livelock.go).
	quiet      int
	livelockAt int
	onLivelock func(*LivelockError)
	onSwitch   func(from, to, point string)
	// onWait, when set, hears every actor that parks on a gate, with the
	// name of the actor that made the gate ("" outside any actor).
	onWait func(waiter, maker string)

	// progress counts scheduling decisions for a watchdog on another
	// goroutine (Progress); abandoned freezes every goroutine that touches
	// the runtime again once the watchdog has given up on it (Abandon).
	progress  atomic.Uint64
	abandoned atomic.Bool
	stoppedAt string // the blocking point a Stop took effect at
	// coros are the coroutines of the live actors that have started, for
	// Abandon to unwind from the watchdog's goroutine (actors_coro.go).
	corosMu sync.Mutex
	coros   []*coro
	// finished moves with every actor that finishes and every Run that
	// begins or returns; stallSeen (finished+1 as the watchdog saw it, 0:
	// none) and stallFor are the watchdog's livelock request (livelock.go).
	finished  atomic.Uint64
	stallSeen atomic.Uint64
	stallFor  atomic.Int64
}

type actorState uint8

const (
	actorNew    actorState = iota // registered; no coroutine yet
	actorReady                    // coroutine started, runnable
	actorParked                   // waiting on a gate
	actorDead
)

type actor struct {
	name     string
	seq      uint64
	fn       func()
	state    actorState
	coro     *coro // the coroutine it runs on, once started
	dying    bool  // unwinding on Kill
	returned bool  // fn returned normally
	gate     *gate // while parked
	// interrupted: Interrupt woke the actor from its gate; Wait returns
	// its context's error instead of waiting on.
	interrupted bool
	local       string // the name without its "#N." prefix, unique in its Run
	// point is its last blocking point and blocks how many it reached;
	// blocksMark is blocks when an actor last finished (livelock.go).
	point      string
	blocks     uint64
	blocksMark uint64
}

// NewRuntime returns a runtime under the uniform strategy drawing its
// choices from interleave, which it alone should use (Stream(seed,
// LabelInterleave)), unless SetPrepare gives every Run a stream of its own.
func NewRuntime(interleave *rand.Rand) *Runtime {
	return &Runtime{base: interleave, strat: &Uniform{}, maxSw: DefaultMaxSwitches,
		livelockAt: DefaultLivelockSwitches, window: map[string]int{}}
}

// SetStrategy sets who decides the choice points of every later Run.
func (r *Runtime) SetStrategy(s Strategy) { r.strat = s }

// SetPrepare sets a function called as every Run starts that returns the
// Run's own stream and, when non-nil, a written schedule the Run follows
// instead of the strategy (see replay). nil: every Run draws from the
// stream NewRuntime was given, under the strategy.
func (r *Runtime) SetPrepare(fn func() (rng *rand.Rand, schedule []string)) { r.prepare = fn }

// SetGateWatch makes fn hear every actor that parks on a gate (Wait on a
// gate not yet open), with the name of the actor that made the gate (""
// when made outside any actor): who waits for whom, for properties on the
// system under test's waits.
func (r *Runtime) SetGateWatch(fn func(waiter, maker string)) { r.onWait = fn }

// Choices returns the local names of the actors chosen at the choice points
// of the last Run, in order: its schedule, which replays it when written
// back (a copy).
func (r *Runtime) Choices() []string { return slices.Clone(r.choices) }

// LocalName returns the local name of the live actor called name: its name
// without the "#N." prefix a host numbers operations with, suffixed "/k" for
// the k-th actor of that name in one Run. Local names stay the same when an
// earlier operation is dropped; schedules are written in them. "" when no
// live actor has that name.
func (r *Runtime) LocalName(name string) string {
	for _, a := range r.live {
		if a.name == name {
			return a.local
		}
	}
	return ""
}

// ActorLocal returns the running actor's local name, or "-" outside any
// actor.
func (r *Runtime) ActorLocal() string {
	if r.current == nil {
		return "-"
	}
	return r.current.local
}

// localBase strips a leading "#<digits>." from an actor name.
func localBase(name string) string {
	if len(name) < 2 || name[0] != '#' {
		return name
	}
	i := 1
	for i < len(name) && name[i] >= '0' && name[i] <= '9' {
		i++
	}
	if i > 1 && i < len(name) && name[i] == '.' {
		return name[i+1:]
	}
	return name
}

// SetMaxSwitches bounds the scheduling decisions of each Run (n <= 0: no
// bound). Past it, Run stops with an error wrapping ErrMaxSwitches.
func (r *Runtime) SetMaxSwitches(n int) { r.maxSw = n }

// OnSwitch sets a hook called at every scheduling decision, before the chosen
// actor runs, with the yielding actor ("" for the driver starting a Run), the
// chosen one (possibly the same) and the blocking point: the Block point,
// "gate" for a park, "exit" when an actor finished, "run" at the start of Run.
// It runs on the goroutine holding the baton and must not block; a panic in it
// ends the Run with an error. A Stop it calls takes effect at once: the
// chosen actor does not run, and the yielding one stays at point.
func (r *Runtime) OnSwitch(fn func(from, to, point string)) { r.onSwitch = fn }

// Go registers an actor. It starts when the runtime first schedules it; an
// actor never started when Kill comes is dropped without running.
func (r *Runtime) Go(name string, fn func()) {
	a := &actor{name: name, seq: r.seq, fn: fn, local: localBase(name)}
	if n := r.window[a.local] + 1; n > 1 {
		r.window[a.local] = n
		a.local += "/" + strconv.Itoa(n)
	} else {
		r.window[a.local] = 1
	}
	r.seq++
	r.live = append(r.live, a)
	r.runnable = append(r.runnable, a) // the newest has the highest sequence
}

// Actor returns the running actor's name, or "" outside any actor.
func (r *Runtime) Actor() string {
	if r.current == nil {
		return ""
	}
	return r.current.name
}

// Stop asks the Run in progress to return at the next scheduling decision,
// leaving every actor where it is: a later Run resumes them, Kill unwinds
// them. A driver uses it (from an actor or the OnSwitch hook) to cut
// operations at a blocking point for a host restart.
func (r *Runtime) Stop() { r.stopReq = true }

// Live returns the names of actors not yet finished, sorted.
func (r *Runtime) Live() []string { return r.names(func(*actor) bool { return true }) }

// Block is a blocking point: the running actor yields and the runtime picks
// who runs next (maybe the caller). Outside any actor, and while an actor is
// being killed, it returns at once.
func (r *Runtime) Block(point string) {
	r.freezeIfAbandoned()
	a := r.current
	if a == nil || a.dying {
		return
	}
	a.point = point
	a.blocks++
	to := r.pick(a, point)
	if to == a {
		return
	}
	r.suspend(a, to)
}

// Run schedules actors until none is runnable and returns the names of the
// actors left parked, sorted. It returns early, with actors still runnable,
// after Stop. When an actor panics, ends through an unrequested Goexit, or the
// switch limit is hit, Run returns that error together with the names of the
// actors that were still live; it has unwound them (as Kill), so no actor
// goroutine outlives a failed Run (a panic raised while unwinding them is
// joined to the error).
func (r *Runtime) Run() (parked []string, err error) {
	if r.running || r.current != nil {
		panic("sim: Runtime.Run called from an actor or while already running")
	}
	r.running, r.stopReq, r.switches, r.stoppedAt = true, false, 0, ""
	r.quietAgain()
	r.begin()
	r.drive(r.pick(nil, "run"))
	r.running = false
	r.finished.Add(1)
	clear(r.window)
	if err := r.err; err != nil {
		r.err = nil
		live := r.Live()
		return live, errors.Join(err, r.kill())
	}
	return r.names(func(a *actor) bool { return a.state == actorParked }), nil
}

// Kill unwinds every live actor, in spawn order, at its blocking point with
// runtime.Goexit, and returns once all have exited. Actors never started are
// dropped. While unwinding, Block returns at once and waiting on a gate that
// is not open returns ErrKilled. If a deferred call panics, Kill finishes
// unwinding the others and then panics with an *ActorPanicError. New actors
// may be started afterwards.
func (r *Runtime) Kill() {
	if r.running || r.current != nil {
		panic("sim: Runtime.Kill called from an actor or during Run")
	}
	if err := r.kill(); err != nil {
		panic(err)
	}
}

// kill unwinds every live actor and returns the first panic raised while
// unwinding, if any.
func (r *Runtime) kill() error {
	r.killing = true
	for len(r.live) > 0 {
		a := r.live[0]
		if a.state == actorNew {
			r.retire(a)
			continue
		}
		a.dying = true
		r.drive(a)
	}
	r.killing = false
	err := r.killErr
	r.killErr = nil
	return err
}

// ClockRead tells the Run's strategy, when it asks (ClockReader), that the
// running actor read the clock. Outside any actor it does nothing.
func (r *Runtime) ClockRead() {
	if r.current == nil || r.active == nil {
		return
	}
	if c, ok := r.active.(ClockReader); ok {
		c.ClockRead()
	}
}

// NewGate implements workspace.Parker.
func (r *Runtime) NewGate() workspace.Gate { return &gate{r: r, maker: r.Actor()} }

var _ workspace.Parker = (*Runtime)(nil)

// gate is a workspace.Gate under the runtime: Wait parks the running actor,
// Open makes its waiters runnable in the order they came, without switching.
type gate struct {
	r       *Runtime
	maker   string // the actor that made it ("" outside any actor)
	open    bool
	waiters []*actor
}

// Wait returns nil at once on an open gate, ctx.Err() if ctx is already done,
// and otherwise parks the running actor until Open. ctx is not watched by a
// goroutine while parked: under simulation only the simulator cancels, and
// after cancelling it wakes the actor with Interrupt, so Wait returns
// ctx.Err() at a decision the seed chose.
func (g *gate) Wait(ctx context.Context) error {
	if g.open {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	a := g.r.current
	switch {
	case a == nil:
		return ErrNotActor
	case a.dying:
		return ErrKilled
	}
	if g.r.onWait != nil {
		g.r.onWait(a.name, g.maker)
	}
	g.waiters = append(g.waiters, a)
	g.r.park(a, g)
	if a.interrupted {
		a.interrupted = false
		if err := ctx.Err(); err != nil {
			return err
		}
		return g.Wait(ctx) // woken for nothing: wait on
	}
	return nil
}

func (g *gate) Open() {
	if g.open {
		return
	}
	g.open = true
	for _, a := range g.waiters {
		if a.state == actorParked && a.gate == g { // not killed meanwhile
			a.state, a.gate = actorReady, nil
			g.r.addRunnable(a)
		}
	}
	g.waiters = nil
}

// pick takes one scheduling decision for the baton holder from (nil: the
// driver). nil means the baton goes back to the driver: nothing is runnable,
// Stop was asked, or the Run has failed.
func (r *Runtime) pick(from *actor, point string) (to *actor) {
	if r.err != nil || r.stopReq || len(r.runnable) == 0 {
		if r.stopReq && r.err == nil {
			r.stoppedAt = point
		}
		return nil
	}
	if r.maxSw > 0 && r.switches >= r.maxSw {
		r.err = fmt.Errorf("%w: %d scheduling decisions in one Run (live: %s)",
			ErrMaxSwitches, r.maxSw, strings.Join(r.Live(), ", "))
		return nil
	}
	r.switches++
	r.progress.Add(1)
	if r.quiet++; r.livelocked() {
		r.livelock(from)
		return nil
	}
	i := 0
	if len(r.runnable) > 1 {
		i = r.choose(from)
	}
	to = r.runnable[i]
	if r.onSwitch != nil {
		if !r.callHook(from, to, point) {
			return nil
		}
		if r.stopReq {
			// A Stop from the hook takes effect at this very decision: the
			// yielding actor stays at point, so a cut lands exactly there.
			r.stoppedAt = point
			return nil
		}
	}
	return to
}

// begin starts a Run's strategy on the Run's stream.
func (r *Runtime) begin() {
	r.choices = r.choices[:0]
	rng, schedule := r.base, []string(nil)
	if r.prepare != nil {
		rng, schedule = r.prepare()
	}
	r.active = r.strat
	if schedule != nil {
		r.active = &replay{names: schedule}
	}
	r.active.Begin(rng)
}

// choose asks the strategy at a choice point and records the answer.
func (r *Runtime) choose(from *actor) int {
	r.buf = r.buf[:0]
	running := -1
	for j, a := range r.runnable {
		r.buf = append(r.buf, a.local)
		if a == from {
			running = j
		}
	}
	i := r.active.Pick(r.buf, running)
	if i < 0 || i >= len(r.runnable) {
		panic(fmt.Sprintf("sim: strategy %s picked %d of %d runnable actors", r.active, i, len(r.runnable)))
	}
	r.choices = append(r.choices, r.buf[i])
	return i
}

func (r *Runtime) callHook(from, to *actor, point string) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			r.err = fmt.Errorf("sim: OnSwitch hook panicked: %v", p)
		}
	}()
	name := ""
	if from != nil {
		name = from.name
	}
	r.onSwitch(name, to.name, point)
	return true
}

func (r *Runtime) park(a *actor, g *gate) {
	r.freezeIfAbandoned()
	r.removeRunnable(a)
	a.state, a.gate = actorParked, g
	a.point = "gate"
	a.blocks++
	r.suspend(a, r.pick(a, "gate"))
}

func (r *Runtime) retire(a *actor) {
	if a.state != actorParked {
		r.removeRunnable(a)
	}
	a.state, a.gate = actorDead, nil
	if i, ok := findSeq(r.live, a.seq); ok {
		r.live = slices.Delete(r.live, i, i+1)
	}
}

func (r *Runtime) addRunnable(a *actor) {
	if i, ok := findSeq(r.runnable, a.seq); !ok {
		r.runnable = slices.Insert(r.runnable, i, a)
	}
}

func (r *Runtime) removeRunnable(a *actor) {
	if i, ok := findSeq(r.runnable, a.seq); ok {
		r.runnable = slices.Delete(r.runnable, i, i+1)
	}
}

func findSeq(as []*actor, seq uint64) (int, bool) {
	return slices.BinarySearchFunc(as, seq, func(a *actor, s uint64) int {
		switch {
		case a.seq < s:
			return -1
		case a.seq > s:
			return 1
		}
		return 0
	})
}

func (r *Runtime) names(keep func(*actor) bool) []string {
	var out []string
	for _, a := range r.live {
		if keep(a) {
			out = append(out, a.name)
		}
	}
	slices.Sort(out)
	return out
}
