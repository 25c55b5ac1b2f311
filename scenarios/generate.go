package scenarios

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/syncsim/syncsim/sim"
)

// Weights gives each op kind's relative likelihood in generated scenarios.
// A zero weight switches the kind off entirely.
type Weights [OpGroup + 1]int

// DefaultWeights favour commands and time: those drive the retry logic;
// faults are frequent enough that every kind shows up in a short sweep.
// Groups are frequent because races live in them and a strategy explores a
// group's interleavings well (PCT); truncations are frequent because a log
// cut under a live connection is what the fence logic (widening, the
// cross-side assertion) must survive, and the profile turns them off for
// half of the seeds anyway (Swarm leaves that switch to it).
var DefaultWeights = Weights{
	OpExec:         30,
	OpWrite:        8,
	OpRetry:        10,
	OpAdvance:      22,
	OpCrash:        4,
	OpRestart:      3,
	OpLoseIdentity: 2,
	OpTruncate:     20,
	OpHostRestart:  3,
	OpGroup:        25,
}

// deferInThree: that many execs in three sync in defer mode. A deferred
// exec always stores an intent, so intents (and the alarm) are common, and
// deferred captures meet truncations often enough that the fence bugs
// (no-widen) are found within a few dozen seeds. Measured with syncsim
// bench -strategies over 3,000 seeds: one in two gave no-widen 71 finds and
// the alarm race 15; two in three gives 114 and 20.
const deferInThree = 2

// Swarm draws per-run weights from r: each kind is switched off with
// probability 1/3 (exec and advance always stay on, or nothing happens) and
// the others are rescaled, so different runs stress different mixes. The
// fault ops (crash, restart, lost identity, truncation, host restart) are
// rescaled but never switched off here: the seed's fault profile switches
// them (applyProfile), one swarm switch per feature as for the per-call
// faults. Switched by both, each was on in a third of the seeds only, and
// bugs that need one fault op with a chain of ops around it were rare:
// syncsim run -bug no-widen -seeds 10000 -seed 100000 failed 326 seeds
// then, 458 now (its truncation was in 31% of seeds). The alarm race (319
// -> 285 of 20,000) and fifo-overlap (517 -> 434 of 5,000) lose a little to
// the extra faults; both stay far inside their hunt bars.
func Swarm(r *rand.Rand) Weights {
	w := DefaultWeights
	for k := range w {
		if OpKind(k) == OpExec || OpKind(k) == OpAdvance || w[k] == 0 {
			continue // always on, or off in the base weights
		}
		if r.IntN(3) == 0 && !profileSwitches(OpKind(k)) {
			w[k] = 0
			continue
		}
		w[k] = 1 + r.IntN(2*w[k])
	}
	return w
}

// GenConfig bounds what Generate draws.
type GenConfig struct {
	Steps     int // number of steps (Steps: group members counted)
	Backends  int
	MaxWrites int // per exec
	Weights   Weights
	// MaxAttempts is the run's resolved retry limit (0: SPEC 2.1's 5), so
	// that host-planted intents land at and around it.
	MaxAttempts int
}

// maxGroupSize bounds a concurrent group: larger groups add interleavings
// faster than they add distinct behaviour.
const maxGroupSize = 4

// plantOneIn is how rarely a top-level op is a host-written intent
// (OpPlant): rare, because hosts rarely write intents, but present, because
// it is the only way the pre-check branch of SPEC 4 is reached.
const plantOneIn = 50

// Generate draws a scenario's ops from the workload stream r: exactly
// c.Steps steps as Steps counts them (a group's members each count), so the
// size a run asks for is the size every report prints.
func Generate(r *rand.Rand, c GenConfig) []Op {
	ops := make([]Op, 0, c.Steps)
	b := &backendDraw{last: -1}
	for n := 0; n < c.Steps; {
		if r.IntN(plantOneIn) == 0 {
			ops = append(ops, genPlant(r, c, b))
			n++
			continue
		}
		op := genOp(r, c, b, true)
		switch left := c.Steps - n; {
		case op.Kind == OpGroup && left == 1:
			op = op.Ops[0] // no room for a race: its first member alone
		case op.Kind == OpGroup && len(op.Ops) > left:
			op.Ops = op.Ops[:left]
		}
		ops = append(ops, op)
		n += Steps([]Op{op})
	}
	return ops
}

// genPlant draws a host-written intent around the run's maxAttempts: at
// exactly the limit (twice as likely: SPEC 4's pre-check uses >, so such an
// intent must still pull, and only a host can store it there), one below
// and one above it, up to the type's limit (an attempt+1 that overflowed
// would show), sometimes at 0 (below the library's range: its first failure
// must store attempt 1) or at 1, naming the container's runtime in half of
// them, a stale runtime or none at all in a quarter each (plantFences).
func genPlant(r *rand.Rand, c GenConfig, b *backendDraw) Op {
	m := c.MaxAttempts
	if m == 0 {
		m = specMaxAttempts
	}
	attempts := [...]int{0, 1, m - 1, m, m, m + 1, math.MaxInt32, math.MaxInt}
	return Op{Kind: OpPlant, Backend: b.draw(r, c.Backends), Attempt: attempts[r.IntN(len(attempts))], Fence: plantFences[r.IntN(len(plantFences))]}
}

// plantFences are the runtime ids a drawn plant names. An intent without a
// runtime on a backend that reports a runtime is what a host that does not track
// runtimes writes; the next failure under a known runtime must replace it
// with a fresh intent rather than coalesce into it (SPEC 3.3 step 4), and
// nothing else in a run stores one while the container has an identity.
var plantFences = [...]sim.Fence{sim.FenceCurrent, sim.FenceCurrent, sim.FenceStale, sim.FenceNone}

// specMaxAttempts is SPEC 2.1's default maxAttempts, written here rather
// than read from the workspace.
const specMaxAttempts = 5

func genOp(r *rand.Rand, c GenConfig, b *backendDraw, allowGroup bool) Op {
	w := c.Weights
	if !allowGroup {
		w[OpGroup] = 0
	}
	k := pick(r, w)
	op := Op{Kind: k}
	switch k {
	case OpExec:
		op.Backend = b.draw(r, c.Backends)
		if r.IntN(3) < deferInThree {
			op.Mode = Defer
		}
		op.Writes = r.IntN(c.MaxWrites + 1)
	case OpWrite, OpCrash, OpRestart, OpTruncate:
		op.Backend = b.draw(r, c.Backends)
	case OpRetry:
		op.Backend = b.draw(r, c.Backends)
		op.Early = r.IntN(2) == 0
	case OpLoseIdentity:
		op.Backend = b.draw(r, c.Backends)
		op.None = r.IntN(4) == 0
	case OpAdvance:
		op.Dur = advanceSteps[r.IntN(len(advanceSteps))]
	case OpHostRestart:
		// A crash (handles dropped) is the rule; a clean shutdown (stores
		// closed first) the rarer case, and never inside a group.
		op.Clean = allowGroup && r.IntN(cleanShutdownOneIn) == 0
	case OpGroup:
		n := 2 + r.IntN(maxGroupSize-1)
		for range n {
			op.Ops = append(op.Ops, genGroupMember(r, c))
		}
	}
	return op
}

// genGroupMember draws the ops a group may hold (OpKind.InGroup): commands
// and retries mostly; sometimes a time advance, so that an alarm-driven retry
// races the others, and a host restart that cuts the group in flight.
// A restart in a group is the one that crashes the host mid-operation (at a
// drawn blocking point: between a batch's apply and its cursor write, say),
// so it weighs hostRestartInGroup times its top-level weight.
func genGroupMember(r *rand.Rand, c GenConfig) Op {
	w := Weights{
		OpExec: c.Weights[OpExec] + 1, OpRetry: c.Weights[OpRetry] + 1, OpWrite: c.Weights[OpWrite],
		OpAdvance: c.Weights[OpAdvance] / 1, OpHostRestart: hostRestartInGroup * c.Weights[OpHostRestart],
	}
	g := c
	g.Weights = w
	return genOp(r, g, nil, false) // members draw their backends freely
}

// backendDraw gives the top-level ops of a scenario locality: an op stays
// on the backend the previous one drew with probability
// sameBackendInFour/4, else draws one uniformly (so with two backends three
// ops in four follow on the same one, against one in two). Bugs of state
// that builds up on one backend need a chain of ops there with nothing in
// between that resets it: a deferred capture, a truncation of that log, a
// second capture (no-widen); an intent, a coalescing failure, an exhaustion.
// pebble's metamorphic generator biases its key choice towards keys already
// used for the same reason. Measured with syncsim run -bug no-widen
// -seeds 10000 -seed 100000: 281 failing seeds drawing every backend
// uniformly, 325 with locality (sameBackendInFour 3: 344). Group members
// still draw freely (nil backendDraw): a group's race needs its ops spread
// over backends as often as on one (the alarm race needs an intent on one
// backend and a command on another; with PCT as sim/strategy.go has it,
// locality inside groups took it from 149 to 93 failing seeds in 20,000).
type backendDraw struct {
	last int // the previous top-level op's backend, -1 before the first
}

const sameBackendInFour = 2

// draw returns the next op's backend among n; a nil b draws uniformly.
func (b *backendDraw) draw(r *rand.Rand, n int) int {
	if b == nil {
		return r.IntN(n)
	}
	if b.last >= 0 && r.IntN(4) < sameBackendInFour {
		return b.last
	}
	b.last = r.IntN(n)
	return b.last
}

// cancelGroupOneIn: one group in this many (without a host restart) gets a
// cancel member.
const cancelGroupOneIn = 3

// cancels draws whether a group of n members gets a cancel: never below
// three members; a group of maxGroupSize, whose cancel leaves three
// operations (one running, one leaving its FIFO, one queued behind it:
// SPEC 5.1's "the others keep their order" needs all three), three times
// as often as a group of three, which leaves two. Groups of three and four
// are drawn equally often, so cancels keep their share of one eligible
// group in cancelGroupOneIn (1/2 and 1/6 average to 1/3).
func cancels(r *rand.Rand, n int) bool {
	switch {
	case n < 3:
		return false
	case n >= maxGroupSize:
		return r.IntN(2) == 0
	}
	return r.IntN(2*cancelGroupOneIn) == 0
}

// addCancels makes the last member of some groups of three or more a
// cancel, drawing from r, a stream of its own, so that the rest of the
// scenario is what the workload stream alone makes of the seed. The cancel
// takes a member's place rather than adding one, so the scenario keeps the
// number of steps it was drawn with, and two operations remain to race.
//
// The operations of a cancelling group all move to the first one's
// backend: what a cancel must leave intact is per backend (its FIFO, where
// a caller that leaves must not let the ones behind it pass the one still
// running, SPEC 5.1; its shared connect, 5.4), and members drawing backends
// freely put two or three of them in one FIFO only a quarter to a half of
// the time. Measured on 4,000 seeds with a probe in the FIFO: a waiter
// walking past an abandoned entry whose predecessor still ran happened 3
// times with free backends, 15 with one group in two moved, 23 with all.
func addCancels(r *rand.Rand, ops []Op) {
	for i, op := range ops {
		if op.Kind != OpGroup || slices.ContainsFunc(op.Ops, func(m Op) bool { return m.Kind == OpHostRestart }) {
			continue
		}
		if cancels(r, len(op.Ops)) {
			members := slices.Clone(op.Ops)
			members[len(members)-1] = Op{Kind: OpCancel}
			for j := range members {
				if hasBackend(members[j].Kind) {
					members[j].Backend = members[0].Backend
				}
			}
			ops[i].Ops = members
		}
	}
}

// plantTargets: a host-written intent often has no target; sometimes it
// targets an early entry of the remote's log, a path inside a revision,
// or (past the log's end) its current revision; and sometimes an entry
// one to three past the backend's fetch cursor ("+K"), where a retry's
// entry budget of one or two (maxEntriesChoices) stops exactly on it: the
// retry is then complete, not progress (SPEC 6.4), a case a target counted
// from the log's start meets about once in a thousand seeds.
var plantTargets = []struct {
	entry int
	ahead bool
}{{0, false}, {0, false}, {1, false}, {2, false}, {3, false}, {5, false}, {8, false}, {1000, false},
	{1, true}, {1, true}, {2, true}, {3, true}}

// addPlantTargets draws each plant op's target on its own stream, like
// addDeletes, so the workload's draws do not move.
func addPlantTargets(r *rand.Rand, ops []Op) {
	for i := range ops {
		if ops[i].Kind == OpPlant {
			t := plantTargets[r.IntN(len(plantTargets))]
			ops[i].Target, ops[i].TargetAhead = t.entry, t.ahead
		}
	}
}

// burstOneIn: in a seed whose retries run under the default budget, one
// exec in this many, top level or in a group, writes a burst of
// burstWrites files instead of its drawn few. burstWrites is one past SPEC
// 2.1's default retry batch of 64 entries, so a retry under the default
// budget that meets a burst must stop on its entry limit with progress
// and complete on the next call (property batch-budget replays the rule
// with the SPEC's 64), and a default budget of any other size shows. Rare,
// because a burst costs about two dozen ordinary execs' events: a burst in
// one exec of 96 in every seed made BenchmarkRunMemory 14% slower.
const (
	burstOneIn  = 64
	burstWrites = 65
)

// addBursts turns about one exec in burstOneIn into a burst, drawing from
// r, a stream of its own, after the workload, like addDeletes.
func addBursts(r *rand.Rand, ops []Op) {
	forEachLeaf(ops, func(o *Op) {
		if o.Kind == OpExec && r.IntN(burstOneIn) == 0 {
			o.Writes = burstWrites
		}
	})
}

// bigOneIn: in a seed whose retries run under the default budget, one exec
// in this many, top level or in a group, writes bigFilesMin to bigFilesMax
// files of bigSizeMin to bigSizeMax bytes each (one size per exec): about 2
// to 9 MiB in all, so the SPEC's default byte budget (4 MiB for a retry's
// batch, SPEC 2.1) stops a retry's batch somewhere inside it, at a point
// that depends on the exact budget. Rare, because each such
// exec moves megabytes through the container, the stores and the models.
const (
	bigOneIn    = 256
	bigFilesMin = 3
	bigFilesMax = 6
	bigSizeMin  = 600 << 10
	bigSizeMax  = 1600 << 10
)

// addBigWrites makes about one exec in bigOneIn write big files (Op.Size),
// drawing from r, a stream of its own, after the workload, like addBursts.
func addBigWrites(r *rand.Rand, ops []Op) {
	forEachLeaf(ops, func(o *Op) {
		if o.Kind == OpExec && !o.Staged && r.IntN(bigOneIn) == 0 {
			o.Writes = bigFilesMin + r.IntN(bigFilesMax-bigFilesMin+1)
			o.Size = bigSizeMin + r.IntN(bigSizeMax-bigSizeMin+1)
		}
	})
}

// pullBurstOneIn: one exec in this many, top level or in a group, writes
// pullBurstWrites files, at most one per scenario: one past SPEC 6.3's
// PULL_BATCH_SIZE of 256, so the pullOnce that brings them (a wait exec's
// post-command pull, an explicit pull, the liveness tail's) applies a full
// batch and then the rest after its stream's end, and one whose stream
// fails in between must have checkpointed the first batch (SPEC R4, S10,
// S11; property apply-batch). Only under the default retry budget, like
// addBursts: a retry whose drawn budget moves a few entries per call would
// need a firing per few entries to bring a burst (a budget of one entry,
// 257 firings, past the liveness tail's bound of 256). Rare, and at most
// one per scenario, for the reason of hostBurstOneIn: each burst is 257
// entries through the container, the stores and the models.
const (
	pullBurstOneIn  = 64
	pullBurstWrites = 257
)

// addPullBursts turns about one exec in pullBurstOneIn that writes ordinary
// files into a pull burst, at most one per scenario, drawing from r, a
// stream of its own, after the workload, like addHostBursts.
func addPullBursts(r *rand.Rand, ops []Op) {
	editOneLeaf(r, ops, pullBurstOneIn, func(o *Op) bool { return o.Kind == OpExec && o.Size == 0 }, func(o *Op) {
		o.Writes = pullBurstWrites
	})
}

// deleteOneIn: one host write in this many is a delete instead.
const deleteOneIn = 4

// addDeletes turns about one host write in deleteOneIn, top level or in a
// group, into a delete. It draws from its own stream, after the workload,
// so the ops drawn before it are the same whether or not deletes exist.
func addDeletes(r *rand.Rand, ops []Op) {
	forEachLeaf(ops, func(o *Op) {
		if o.Kind == OpWrite {
			o.Delete = r.IntN(deleteOneIn) == 0
		}
	})
}

// savesOneIn: one host write in this many (not a delete) saves several
// files, two to maxSaves, one after another.
const (
	savesOneIn = 3
	maxSaves   = 4
)

// addSaves makes some host writes, top level or in a group, save several
// files one after another (Op.Files), drawing from r, a stream of its own,
// after the workload, like addDeletes. The host yields between two saves
// (sim.Host.SpawnWrites), so in a group the later saves land while another
// operation is under way: between two batches of a push, whose target must
// not move (SPEC 6.5); and, top level or not, several pending changes make
// the pushes of a small push budget span batches.
func addSaves(r *rand.Rand, ops []Op) {
	forEachLeaf(ops, func(o *Op) {
		if o.Kind == OpWrite && !o.Delete && r.IntN(savesOneIn) == 0 {
			o.Files = 2 + r.IntN(maxSaves-1)
		}
	})
}

// hostBurstOneIn: in a seed whose pushes run under the default push batch,
// one host write in this many (not a delete) saves hostBurstFiles files:
// one past SPEC 6.5's PUSH_BATCH of 256 entries, so the push that carries
// them sends a full batch and then one more (property push-batch holds
// both to the SPEC's 256), and a default of any other size shows. Rare:
// each burst is 257 local writes and as many yields. (One in 96 let a
// 255-entry default pass the 600 seeds of the default sweep: it died at
// seed 647; one in 64 kills it at seed 123.)
const (
	hostBurstOneIn = 64
	hostBurstFiles = 257
)

// addHostBursts turns about one host write in hostBurstOneIn into a burst
// of saves, at most one per scenario (as addBigHostWrites, so that a long
// run does not pile thousands of pending saves up), drawing from r, a
// stream of its own, after the workload.
func addHostBursts(r *rand.Rand, ops []Op) {
	editOneLeaf(r, ops, hostBurstOneIn, savesContent, func(o *Op) { o.Files = hostBurstFiles })
}

// bigHostOneIn: in a seed whose pushes run under the default push batch,
// one host write in this many (not a delete) saves bigFilesMin to
// bigFilesMax files of bigSizeMin to bigSizeMax bytes each, as a big exec
// writes them: 2 to 9 MiB in all, so SPEC 6.5's 4 MiB byte budget stops a
// push's batch inside them (property push-batch predicts where). Rare, for
// the same reason as bigOneIn.
const bigHostOneIn = 128

// addBigHostWrites makes about one host write in bigHostOneIn save big
// files (Op.Files, Op.Size), at most one write per scenario, drawing from
// r, a stream of its own, after the workload. One is all a push's byte
// budget needs; more would pile megabytes up in a long run whose pushes
// keep failing, and every push reads its pending changes' contents (a
// 5,000-step seed went from 0.5 s to 1.5 s).
func addBigHostWrites(r *rand.Rand, ops []Op) {
	editOneLeaf(r, ops, bigHostOneIn, savesContent, func(o *Op) {
		o.Files = bigFilesMin + r.IntN(bigFilesMax-bigFilesMin+1)
		o.Size = bigSizeMin + r.IntN(bigSizeMax-bigSizeMin+1)
	})
}

// savesContent: o is a host write that is not a delete.
func savesContent(o *Op) bool { return o.Kind == OpWrite && !o.Delete }

// editOneLeaf edits at most one leaf op (forEachLeaf's order): the first
// that match accepts and that wins a one-in-oneIn draw from r. Every
// accepted leaf up to it draws once, none after it, so the ops before the
// edited one decide alone where it lands.
func editOneLeaf(r *rand.Rand, ops []Op, oneIn int, match func(o *Op) bool, edit func(o *Op)) {
	done := false
	forEachLeaf(ops, func(o *Op) {
		if !done && match(o) && r.IntN(oneIn) == 0 {
			edit(o)
			done = true
		}
	})
}

// forEachLeaf calls edit on every op that is not a group, group members
// included, in order; a group's member list is cloned first, so a
// scenario sharing it is left as it was.
func forEachLeaf(ops []Op, edit func(o *Op)) {
	for i := range ops {
		if ops[i].Kind == OpGroup {
			ops[i].Ops = slices.Clone(ops[i].Ops)
			forEachLeaf(ops[i].Ops, edit)
			continue
		}
		edit(&ops[i])
	}
}

// pullOneIn: one retry in this many, top level or in a group, is an
// explicit pull of the same backend instead (OpPull).
const pullOneIn = 3

// addPulls turns about one retry in pullOneIn into an explicit
// Workspace.Pull of the same backend, drawing from r, a stream of its own,
// after the workload, like addDeletes. A pull is the only operation before
// the tail whose failure reaches its caller as a Go error, so it is where
// the SPEC's error classes (transport, EEXEC_LOST, the cross-side
// assertion) are held to errors.Is; and pullOnce, unlike a retry's
// pullBatch, trips the cross-side assertion when a push stopped between
// two batches (docs/SPEC.md 6.3 QUIRK), which a pull racing an exec's
// replayed push in a group reaches.
func addPulls(r *rand.Rand, ops []Op) {
	forEachLeaf(ops, func(o *Op) {
		if o.Kind == OpRetry && r.IntN(pullOneIn) == 0 {
			*o = Op{Kind: OpPull, Backend: o.Backend}
		}
	})
}

// writeRaceOneIn: in a group that holds an exec, one host write in this
// many moves to an exec's backend.
const writeRaceOneIn = 2

// addWriteRaces moves some host writes of a group onto the backend of an
// exec in the same group, drawing from r, a stream of its own, after the
// workload, like addDeletes. Members draw their backends freely (a group's
// race needs them spread), so a write met an exec's pre-exec push on its
// own backend in one group in several hundred: the race where a write
// lands between two batches of a push, whose target must stay where the
// first batch put it (SPEC 6.5, property push-target), and where the
// local store must hand a push window a pending change next to a pulled
// entry.
func addWriteRaces(r *rand.Rand, ops []Op) {
	for i := range ops {
		if ops[i].Kind != OpGroup {
			continue
		}
		var execs []int
		for _, m := range ops[i].Ops {
			if m.Kind == OpExec {
				execs = append(execs, m.Backend)
			}
		}
		if len(execs) == 0 {
			continue
		}
		ops[i].Ops = slices.Clone(ops[i].Ops)
		for j, m := range ops[i].Ops {
			if m.Kind == OpWrite && r.IntN(writeRaceOneIn) == 0 {
				ops[i].Ops[j].Backend = execs[r.IntN(len(execs))]
			}
		}
	}
}

// cleanShutdownOneIn: one top-level host restart in this many is a clean
// shutdown rather than a crash.
const cleanShutdownOneIn = 5

// hostRestartInGroup multiplies a host restart's weight inside a group.
const hostRestartInGroup = 6

// advanceSteps span the default backoff range (1 s .. 60 s) so that some
// advances land inside a backoff window and some jump past it.
var advanceSteps = []time.Duration{
	100 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second,
	5 * time.Second, 10 * time.Second, 30 * time.Second, time.Minute,
}

func pick(r *rand.Rand, w Weights) OpKind {
	total := 0
	for _, x := range w {
		total += x
	}
	n := r.IntN(total)
	for k, x := range w {
		if n < x {
			return OpKind(k)
		}
		n -= x
	}
	return OpExec
}

// profileSwitches reports whether the fault profile switches op kind k on
// and off (applyProfile's kinds).
func profileSwitches(k OpKind) bool {
	_, ok := profileKinds[k]
	return ok
}
