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
	h.streams.opKey, h.streams.opRuns, h.streams.schedule = key, 0, schedule
}

// SetSchedule gives the next Run a written schedule (nil: the strategy
// decides): at each choice point the actor of that local name runs.
func (h *Host) SetSchedule(schedule []string) { h.streams.schedule = schedule }

// LastSchedule returns the schedule of the last Run: the local name of the
// actor chosen at each of its choice points. Written back with SetOp, it
// replays that Run exactly.
func (h *Host) LastSchedule() []string { return h.rt.Choices() }

// Strategy returns the run's scheduling strategy.
func (h *Host) Strategy() Strategy { return h.streams.strategy }

// nextRunKey is the key of the operation's next Run.
func (h *Host) nextRunKey() string { return h.streams.opKey + "/" + strconv.Itoa(h.streams.opRuns) }

// prepareRun is the runtime's SetPrepare hook: the Run's own stream, and
// the written schedule given for it, if any.
func (h *Host) prepareRun() (*rand.Rand, []string) {
	h.streams.runKey = h.nextRunKey()
	schedule := h.streams.schedule
	h.streams.schedule = nil
	h.streams.opRuns++
	// Stream(seed, LabelInterleave+"/"+runKey), on the host's own
	// generator reseeded (a Run's stream serves that Run only, and Runs
	// never overlap).
	h.streams.runSrc.Seed(streamKeys(h.cfg.Seed, fnvAdd(fnvAdd(fnvAdd(fnvOffset, LabelInterleave), "/"), h.streams.runKey)))
	if h.streams.runRand == nil {
		h.streams.runRand = rand.New(&h.streams.runSrc)
	}
	return h.streams.runRand, schedule
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
	if s.last == nil || a != s.lastActor || s.h.streams.runKey != s.lastRun {
		s.lastActor, s.lastRun, s.last = a, s.h.streams.runKey, s.stream(a)
	}
	return s.last.Uint64()
}

// stream returns actor a's stream in the Run in progress.
func (s *actorSource) stream(a *actor) *rand.PCG {
	run := s.h.streams.runKey
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

// actorDraw is Stream(seed, prefix+"/"+Run key+"/"+local name of the actor
// called name) for the draws made once per actor as it is registered
// (callID, rearmsAfterRequest, exitCode): hashed in parts and drawn from
// the host's one reusable generator, reseeded, instead of a label built
// and a generator allocated for each. The result is valid until the next
// actorDraw; a rand.Rand keeps no state of its own beyond its source, so
// a reseeded one draws what a fresh Stream would.
func (h *Host) actorDraw(prefix, name string) *rand.Rand {
	var n [20]byte
	hash := fnvAdd(fnvOffset, prefix)
	hash = fnvAdd(hash, "/")
	hash = fnvAdd(hash, h.streams.opKey)
	hash = fnvAdd(hash, "/")
	hash = fnvAdd(hash, string(strconv.AppendInt(n[:0], int64(h.streams.opRuns), 10)))
	hash = fnvAdd(hash, "/")
	hash = fnvAdd(hash, h.rt.LocalName(name))
	h.streams.drawSrc.Seed(streamKeys(h.cfg.Seed, hash))
	if h.streams.draw == nil {
		h.streams.draw = rand.New(&h.streams.drawSrc)
	}
	return h.streams.draw
}
