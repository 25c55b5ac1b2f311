package sim

import (
	"math/rand/v2"
	"strconv"
)

// Per-operation streams. Every Run of the actor runtime (one step of one
// operation: a command, a group, the alarm firings inside an advance) draws
// its interleaving from a stream keyed by the operation, and every actor
// draws its faults from a stream keyed by the operation and the actor's
// local name. So dropping one operation from a scenario moves no draw of
// the others (pebble's errorfs keeps a stream per key for the same reason),
// and the shrinker need not reseed to keep a race.
//
// The driver names each operation with SetOp before applying it; its key
// must not depend on the other operations' positions (scenarios uses the
// op's text and how many identical ops came before it). Runs of one
// operation are numbered in order.

// SetOp names the operation whose steps and actors come next, and gives its
// next Run a written schedule (nil: the strategy decides).
func (h *Host) SetOp(key string, schedule []string) {
	h.opKey, h.opRuns, h.schedule = key, 0, schedule
}

// SetSchedule gives the next Run a written schedule (nil: the strategy
// decides): at each choice point the actor of that local name runs.
func (h *Host) SetSchedule(schedule []string) { h.schedule = schedule }

// LastSchedule returns the schedule of the last Run: the local name of the
// actor chosen at each of its choice points. Written back with SetOp, it
// replays that Run exactly.
func (h *Host) LastSchedule() []string { return h.rt.Choices() }

// Strategy returns the run's scheduling strategy.
func (h *Host) Strategy() Strategy { return h.strategy }

// nextRunKey is the key of the operation's next Run.
func (h *Host) nextRunKey() string { return h.opKey + "/" + strconv.Itoa(h.opRuns) }

// prepareRun is the runtime's SetPrepare hook: the Run's own stream, and
// the written schedule given for it, if any.
func (h *Host) prepareRun() (*rand.Rand, []string) {
	h.runKey = h.nextRunKey()
	schedule := h.schedule
	h.schedule = nil
	h.opRuns++
	return Stream(h.cfg.Seed, LabelInterleave+"/"+h.runKey), schedule
}

// actorSource is a rand.Source that draws from a stream of the running
// actor's own: label, the Run's key and the actor's local name. Outside any
// actor it draws from the Run's "-" stream. A fault wrapper holding a
// rand.Rand over it therefore draws per operation without knowing it.
type actorSource struct {
	h     *Host
	label string
	// byActor remembers each actor's stream in the Run byRun, so that
	// switching back to an actor finds its stream without building and
	// hashing its key again (a handoff happens at almost every blocking
	// point). It forgets at every new Run: it must not keep finished
	// actors, and their closures, alive for the rest of a long run.
	byActor map[*actor]*rand.PCG
	byRun   string
	// the last actor's stream, so that a run of draws by one actor looks
	// up nothing
	lastActor *actor
	lastRun   string
	last      *rand.PCG
}

func (h *Host) actorRand(label string) *rand.Rand {
	return rand.New(&actorSource{h: h, label: label, byActor: map[*actor]*rand.PCG{}})
}

func (s *actorSource) Uint64() uint64 {
	a := s.h.rt.current
	if s.last == nil || a != s.lastActor || s.h.runKey != s.lastRun {
		s.lastActor, s.lastRun, s.last = a, s.h.runKey, s.stream(a)
	}
	return s.last.Uint64()
}

// stream returns actor a's stream in the Run in progress.
func (s *actorSource) stream(a *actor) *rand.PCG {
	run := s.h.runKey
	if run != s.byRun {
		clear(s.byActor)
		s.byRun = run
	}
	if p, ok := s.byActor[a]; ok {
		return p
	}
	// A local name is unique in its Run, so one actor is one key.
	p := streamSource(s.h.cfg.Seed, s.label+"@"+run+"/"+s.h.rt.ActorLocal())
	s.byActor[a] = p
	return p
}
