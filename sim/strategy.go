package sim

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Strategy decides who runs at each choice point of the actor runtime: a
// scheduling decision with more than one runnable actor (a decision with one
// is forced and never reaches it). Strategies are small interchangeable
// types behind this one interface, as awslabs/shuttle keeps its random, PCT
// and replay schedulers behind its Scheduler trait.
//
// A strategy draws only from the stream Begin hands it: the runtime gives
// every Run (one step of one operation) a stream of its own, derived from the
// seed and the operation (see Runtime.Prepare), so that dropping an operation
// moves no other operation's interleaving.
type Strategy interface {
	// Begin starts one Run with that Run's own stream.
	Begin(rng *rand.Rand)
	// Pick returns the index in runnable (the runnable actors' local names
	// in spawn order, at least two) of the actor to run next. running is the
	// index of the actor that is yielding, -1 when it is not runnable (it
	// parked, it finished, or the driver starts the Run).
	Pick(runnable []string, running int) int
	// String names the strategy and its parameters for the trace header.
	String() string
}

// Strategy names, as the command line and scenario files spell them.
const (
	StrategyUniform = "uniform"
	StrategyPCT     = "pct"
	StrategyMix     = "mix"
)

// StrategyModes lists the modes DrawStrategy accepts.
var StrategyModes = []string{StrategyUniform, StrategyPCT, StrategyMix}

// LabelStrategy is the stream a seed's strategy (and PCT's depth) is drawn
// from: a stream of its own, so choosing a strategy moves nothing else.
const LabelStrategy = "strategy"

// Uniform is the uniform random walk: every runnable actor is equally
// likely at every choice point. It explores shallow interleavings well and
// deep ones (one particular preemption among dozens of points) poorly. Its
// Begin keeps the step's stream, Pick draws uniformly from it, and String
// is "uniform".
type Uniform struct{ rng *rand.Rand }

func (u *Uniform) Begin(rng *rand.Rand)              { u.rng = rng }
func (u *Uniform) Pick(runnable []string, _ int) int { return u.rng.IntN(len(runnable)) }
func (u *Uniform) String() string                    { return StrategyUniform }

// PCT is probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi
// and Nagarakatte, ASPLOS 2010). Every actor gets a random priority when it
// first competes, the highest-priority runnable actor always runs, and at
// Depth-1 change points, drawn uniformly among the first Steps choice points
// of the Run, the actor about to run drops below every other. A choice
// point counts towards the change points only when two threads or more are
// runnable (a thread beside a tick not yet due decides nothing: it runs on
// whatever its priority), so no change point is spent where it cannot
// preempt. A timer callback of the system under test runs promptly (above
// every thread) three times in four, at a random priority otherwise. A Run
// with change points to spend spends its first right after a read of the
// intent store returned (ReadReturned, pctReadSteps). For a program
// of n actors and k steps, a bug of depth d (d ordering constraints between
// steps) is found with probability at least 1/(n·k^(d-1)) per run.
//
// One Run of the runtime (one step of one operation) is one PCT program: a
// group of concurrent operations, or the retries of one alarm firing.
type PCT struct {
	// Depth is d: Depth-1 priority change points per Run.
	Depth int
	// Steps is k, the choice points over which change points are spread.
	// A Run usually takes fewer; a change point past its end does nothing.
	Steps int

	rng     *rand.Rand
	prio    map[string]uint64
	changes []int // choice-point numbers at which a change happens, any order
	n       int   // choice points so far in this Run (ticks are placed on them)
	m       int   // of them, those with two threads or more (change points are)
	reads   int   // clock reads by the system under test so far in this Run
	// readChange is the contested choice point right after an intent-store
	// read returned (counted from 1) at which the actor about to run drops
	// below every other: 0 none. readsSeen counts those points; atRead: the
	// next choice point is one (ReadReturned).
	readChange int
	readsSeen  int
	atRead     bool
	// events: where each tick becomes eligible
	events map[string]eventPlace
}

// eventPlace is where an event (a tick) becomes eligible: at a choice
// point, or right after a clock read of the system under test.
type eventPlace struct {
	at      int
	byReads bool // at counts clock reads, not choice points
}

// due reports whether the event may run now.
func (e eventPlace) due(p *PCT) bool {
	if e.byReads {
		return p.reads >= e.at
	}
	return p.n >= e.at
}

// PCTSteps is the k a drawn PCT spreads its change points (over choice
// points where two threads compete) and half its ticks (over every choice
// point) over. Measured over the generator's groups (recorded schedules,
// which stop at the last switch): 6 choice points at the median for one
// thread, 14 for two, 23 for three. A smaller k makes each point likelier
// (the bound grows as 1/k^(d-1)); points past k are reached only through
// the priorities, and for ticks through clock reads (placeEvent): a
// command's intent write, where the time-based alarm race lives, comes 12
// or more choice points into a group.
const PCTSteps = 12

// maxPCTDepth bounds the depth DrawStrategy draws: races in this system
// need one or two preemptions, and every extra change point divides the
// bound by k.
const maxPCTDepth = 3

// Begin starts a Run: it forgets the last Run's priorities and tick
// places and draws Depth-1 change points from the Run's own stream rng.
func (p *PCT) Begin(rng *rand.Rand) {
	p.rng, p.n, p.m, p.reads = rng, 0, 0, 0
	p.readChange, p.readsSeen, p.atRead = 0, 0, false
	if p.prio == nil {
		p.prio = map[string]uint64{}
	}
	clear(p.prio)
	if p.events == nil {
		p.events = map[string]eventPlace{}
	}
	clear(p.events)
	p.changes = p.changes[:0]
	changes := p.Depth - 1
	if changes > 0 {
		p.readChange = 1 + rng.IntN(pctReadSteps)
		changes--
	}
	for range changes {
		p.changes = append(p.changes, 1+rng.IntN(max(p.Steps, 1)))
	}
}

// A read-then-act race (read the intent store, another actor writes it,
// act on the stale read) needs its one preemption right after the read
// returned, and when the act is no call at all (the Waker arming its
// timer from a listing) nowhere else. Such a point comes late in a group
// (after a firing's retries, say), far past the first PCTSteps contested
// choice points that change points are spread over; and the intent store,
// the one state that every operation and the alarm share, is read only a
// few times in a group. So a Run with change points to spend (Depth >= 2)
// spends its first on the j-th contested choice point right after an
// intent-store read (Get, List) returned, j uniform in 1..pctReadSteps, and
// the rest as before. Measured on the planted read-then-act bug, whose
// stale listing is a firing's third or fourth contested read (syncsim run
// -bug alarm-stale-rearm -seeds 4000 -max-failures 0): never found without
// it; with it 8, 12, 13 and 13 failing seeds from 100000, 300000, 500000
// and 700000 (about 1 in 350); j in 1..2 found none. The bugs that need a
// plain change point kept their rates (the ranges of README's "Schedules
// and strategies", failing seeds without / with it): alarm-handled-time 55
// / 80 of 4,000, fifo-overlap 313 / 322 and no-widen 98 / 98 of 2,000.
const pctReadSteps = 4

// ReadReturned implements ReadReturner: the next choice point comes right
// after an intent-store read returned.
func (p *PCT) ReadReturned() { p.atRead = true }

// ReadReturner is implemented by a strategy that wants to know when a
// choice point comes right after a read of the intent store returned (the
// host tells the Run's strategy just before that point).
type ReadReturner interface {
	// ReadReturned says the next choice point follows an intent-store read.
	ReadReturned()
}

// Initial priorities live above every lowered one: change point i lowers
// its actor to priority Depth-i, below every initial priority.
const pctInitialFloor = 1 << 32

// Pick runs the highest-priority runnable actor; at a change point the
// one about to run is demoted first. Change points are numbered over the
// choice points where two threads or more compete: a choice between one
// thread and a tick that is not yet due always goes to the thread, and a
// change point spent there would demote a thread that preempts nobody —
// then, once a second thread appears (the alarm's timer, a retry it
// starts), the demoted one always loses, the very ordering a race at that
// moment needs half the time. Measured on the time-based alarm race
// (bug-alarm-handled-time.txt without its schedule, 1,000 seeds under pct,
// timers prompt): counted over every choice point, depth 2 and 3 found it
// 0 times; counted over contested ones, 65 in 376 and 32 in 226 seeds.
func (p *PCT) Pick(runnable []string, _ int) int {
	p.n++
	atRead := p.atRead
	p.atRead = false
	best := p.top(runnable)
	if threads(runnable) < 2 {
		return best
	}
	p.m++
	for i, c := range p.changes {
		if c == p.m {
			p.prio[runnable[best]] = uint64(p.Depth - 1 - i)
			best = p.top(runnable)
		}
	}
	if atRead {
		if p.readsSeen++; p.readsSeen == p.readChange {
			p.prio[runnable[best]] = 0 // below every change point's
			best = p.top(runnable)
		}
	}
	return best
}

// top returns the highest-priority runnable actor, giving a priority to
// each it meets for the first time (ties, which need equal 63-bit draws or
// two prompt timers, go to the earlier spawned). A tick not yet due is
// passed over unless nothing else can run. A timer callback gets
// pctTimerPrompt three times in four (timerPrompt).
func (p *PCT) top(runnable []string) int {
	best, bestPrio := -1, uint64(0)
	for i, name := range runnable {
		pr, ok := p.prio[name]
		if !ok {
			pr = pctInitialFloor + p.rng.Uint64()>>1
			if IsEvent(name) {
				p.events[name] = p.placeEvent(runnable)
			} else if IsTimer(name) && p.rng.IntN(timerPromptOutOf) < timerPrompt {
				pr = pctTimerPrompt
			}
			p.prio[name] = pr
		}
		if e, ok := p.events[name]; ok {
			if !e.due(p) {
				continue
			}
			pr = ^uint64(0) // due: time moves now
		}
		if best < 0 || pr > bestPrio {
			best, bestPrio = i, pr
		}
	}
	if best < 0 {
		return 0 // only ticks not yet due: the earliest goes
	}
	return best
}

// IsEvent reports whether a local actor name is an event rather than a
// thread of the system: a tick (time moving while operations are in
// flight). PCT does not give an event a priority among threads; it places
// it at a choice point drawn uniformly among the next Steps, as it places a
// change point, so a time jump lands anywhere in a group: before a
// command's push, between its intent and its store write, after everything.
func IsEvent(local string) bool {
	return local == TickActor || strings.HasPrefix(local, TickActor+"/")
}

// IsTimer reports whether a local actor name is a timer callback of the
// system under test (a native timer of the virtual clock firing).
func IsTimer(local string) bool {
	base, _, _ := strings.Cut(local, "/")
	return base == TimerActor || base == DeadlineActor
}

// Timer actor names: Clock.SetSpawn's labels, which Host.spawnTimer makes
// the actors' local names.
const (
	TimerActor    = "timer"
	DeadlineActor = "deadline"
)

// A timer callback (the production alarm's, a context deadline) is what
// makes time moving matter: a tick placed right after a clock read opens a
// time-of-check-to-time-of-use window, and the race is there only if the
// callback acts inside it, before the thread that read the clock reaches
// its next write. At a random priority it does so half the time (and the
// threads it starts, such as the alarm's retries, compete again), so
// timerPrompt times in timerPromptOutOf PCT runs it at once, above every
// thread, as a real timer fires when its time comes; the rest keep a random
// priority, so a callback delayed behind the threads is still explored.
// Measured (syncsim run -bug alarm-handled-time -seeds 20000 -seed 100000,
// on the generator with backend locality (scenarios/generate.go),
// mix, change points over contested choice points): random priority 142
// failing seeds, prompt 3 in 4: 171, always: 205; fifo-overlap unchanged.
const (
	timerPrompt      = 3
	timerPromptOutOf = 4
)

// pctTimerPrompt is the priority of a timer that fires promptly: above
// every thread, below a due tick (whose time moves first).
const pctTimerPrompt = ^uint64(0) - 1

// TickActor is the local name of the actor that moves time inside a group
// (sim.Host.SpawnTick).
const TickActor = "tick"

// placeEvent draws where a tick first seen now becomes eligible. Half the
// time at a choice point drawn uniformly among the next Steps, as a change
// point is placed: anywhere in the group. The other half right after a
// clock read of the system under test, the j-th from now with j uniform in
// 1..t for t threads runnable: time moves between the moment the system
// read the clock and its next blocking point, typically the store write of
// what it computed from that reading (an intent's NotBefore, a pull's
// wall-time budget). That is the window of every time-of-check-to-time-of-
// use race, and among a group's dozens of choice points it is one or two; a
// j past the Run's reads wastes the placement (the tick runs when nothing
// else can). A thread reads the clock at most about once per Run: over
// 2,000 generated seeds under pct, 98% of Runs of two or three threads made
// at most that many reads, most fewer. With j in 1..2t (before) three
// placements in four fell past the last read: syncsim run -bug
// alarm-handled-time -seeds 20000 -seed 100000 failed 171 seeds with it,
// 319 with 1..t (fifo-overlap 461 -> 517 of 5,000, no-widen unchanged).
func (p *PCT) placeEvent(runnable []string) eventPlace {
	if p.rng.IntN(2) == 0 {
		return eventPlace{at: p.n + p.rng.IntN(max(p.Steps, 1))}
	}
	return eventPlace{at: p.reads + 1 + p.rng.IntN(max(threads(runnable), 1)), byReads: true}
}

// threads counts the threads (actors that are not events) in runnable.
func threads(runnable []string) int {
	n := 0
	for _, name := range runnable {
		if !IsEvent(name) {
			n++
		}
	}
	return n
}

// ClockRead implements ClockReader: the system under test read the clock.
func (p *PCT) ClockRead() { p.reads++ }

// ClockReader is implemented by a strategy that wants to know when the
// system under test reads the clock (the runtime tells the Run's strategy).
type ClockReader interface {
	// ClockRead is called each time the system under test reads the clock.
	ClockRead()
}

// String is what the trace header prints: "pct d=<depth> k=<steps>".
func (p *PCT) String() string {
	return StrategyPCT + " d=" + strconv.Itoa(p.Depth) + " k=" + strconv.Itoa(p.Steps)
}

// DrawStrategy returns seed's strategy under mode: uniform, pct (depth drawn
// from 1..3) or mix (one seed in eight uniform, the rest PCT). The draws
// come from the seed's LabelStrategy stream only.
//
// Why this mix (syncsim bench -strategies, seeds 7310001.. for the alarm
// race, 9420001.. for the others): the time-based alarm race is found by
// PCT (62 seeds in 4,000) and never by the uniform walk (0), which places a
// tick at the first choice point half the time; two overlapping mutations
// of one backend (fifo-overlap) are found most by the uniform walk (434 in
// 2,000 against PCT's 141), which switches at every point; no-widen is
// found alike by both (85 and 89 in 2,000). The mix: 55, 165 and 91. A few
// uniform seeds keep the uniform walk's strength.
func DrawStrategy(mode string, seed uint64) (Strategy, error) {
	r := Stream(seed, LabelStrategy)
	switch mode {
	case StrategyUniform:
		return &Uniform{}, nil
	case StrategyPCT:
		return &PCT{Depth: drawDepth(r), Steps: PCTSteps}, nil
	case StrategyMix, "":
		if r.IntN(8) == 0 {
			return &Uniform{}, nil
		}
		return &PCT{Depth: drawDepth(r), Steps: PCTSteps}, nil
	}
	return nil, fmt.Errorf("unknown strategy %q (want uniform, pct or mix)", mode)
}

// drawDepth draws PCT's d: 1 (no preemption: a random run-to-completion
// order, ticks placed at random; the best at the alarm race) and 2 (one
// preemption) three times in eight each, 3 twice in eight.
func drawDepth(r *rand.Rand) int {
	switch n := r.IntN(8); {
	case n < 3:
		return 1
	case n < 6:
		return 2
	}
	return maxPCTDepth
}

// replay follows a written schedule: at choice point i it runs the actor
// named by the schedule's entry i. When that actor is not runnable (the
// scenario changed under the schedule) or the schedule is used up, it runs
// the yielding actor if it can and else the earliest spawned: a rule that
// needs no random draw, so a written schedule replays whatever the seed.
type replay struct {
	names []string
	i     int
}

func (s *replay) Begin(*rand.Rand) {}

func (s *replay) Pick(runnable []string, running int) int {
	if s.i < len(s.names) {
		want := s.names[s.i]
		s.i++
		for j, n := range runnable {
			if n == want {
				return j
			}
		}
	}
	return max(running, 0)
}

func (s *replay) String() string { return "replay" }
