package scenarios

import (
	"slices"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/workspace"
)

// shrinkPass is one kind of simplification. run tries its candidates on s
// in a fixed order, keeps each one that still fails, and reports whether
// it changed anything.
type shrinkPass struct {
	name string
	run  func(sh *shrinker, s Scenario) (Scenario, bool)
}

// shrinkPasses run in this order every round: the ones that remove the most
// come first, so that the fine-grained ones work on a short scenario.
var shrinkPasses = []shrinkPass{
	{"drop-backend", (*shrinker).dropBackends},
	{"drop-chunks", (*shrinker).dropChunks},
	{"groups", (*shrinker).simplifyGroups},
	{"drop-fault-pairs", (*shrinker).dropFaultPairs},
	{"drop-faults", func(sh *shrinker, s Scenario) (Scenario, bool) { return sh.dropLeaves(s, isFaultOp) }},
	{"simplify-ops", func(sh *shrinker, s Scenario) (Scenario, bool) { return sh.editLeaves(s, simplerOps) }},
	{"retarget", func(sh *shrinker, s Scenario) (Scenario, bool) { return sh.editLeaves(s, lowerBackends) }},
	{"merge-advances", (*shrinker).mergeAdvances},
	{"carry-advances", (*shrinker).carryAdvances},
	{"shorten-advances", func(sh *shrinker, s Scenario) (Scenario, bool) { return sh.editLeaves(s, shorterAdvances) }},
	{"profile", (*shrinker).simplifyProfile},
	{"certain-faults", (*shrinker).certainFaults},
	{"max-entries", func(sh *shrinker, s Scenario) (Scenario, bool) { return sh.dropConfig(s, dropMaxEntries) }},
	{"max-bytes", func(sh *shrinker, s Scenario) (Scenario, bool) { return sh.dropConfig(s, dropMaxBytes) }},
	{"max-wall", func(sh *shrinker, s Scenario) (Scenario, bool) { return sh.dropConfig(s, dropMaxWall) }},
	{"backend-ids", func(sh *shrinker, s Scenario) (Scenario, bool) { return sh.dropConfig(s, dropBackendIDs) }},
	{"push-budget", func(sh *shrinker, s Scenario) (Scenario, bool) { return sh.dropConfig(s, dropPushBudget) }},
	{"max-attempts", (*shrinker).lowerMaxAttempts},
	{"schedules", (*shrinker).minimiseSchedules},
	{"shift-drop", (*shrinker).shiftDrop},
	{"reseed-drop", (*shrinker).reseedDrop},
}

// reseedSeeds bounds the seeds reseedDrop tries for each candidate: small
// ones, which read well in a corpus file.
const reseedSeeds = 64

// reseedDrop drops one top-level op at a time under another seed. With the
// seed fixed, ops that only use up random draws (so that a later fault lands
// where it must) cannot go: removing them shifts every draw after them. A
// different seed lines the draws up differently, and the bug needs only its
// essential ops. Seeds 1..reseedSeeds are tried in order, so the result stays
// a deterministic function of the input. With a written schedule the
// interleaving no longer comes from the seed and every op draws from its
// own streams, so there is nothing to line up: the pass does nothing.
func (sh *shrinker) reseedDrop(s Scenario) (Scenario, bool) {
	if HasSchedule(s.Ops) {
		return s, false
	}
	for i := len(s.Ops) - 1; i >= 0; i-- {
		ops := slices.Delete(slices.Clone(s.Ops), i, i+1)
		if len(ops) == 0 {
			continue
		}
		for seed := uint64(1); seed <= reseedSeeds && !sh.stopped(); seed++ {
			c := withOps(s, ops)
			c.Seed = seed
			if sh.try(&s, c) {
				return s, true
			}
		}
	}
	return s, false
}

// try accepts c when it still fails.
func (sh *shrinker) try(s *Scenario, c Scenario) bool {
	if sh.fails(c) {
		*s = c
		return true
	}
	return false
}

// withOps returns s with its ops replaced (config and profile shared; they
// are values).
func withOps(s Scenario, ops []Op) Scenario {
	s.Ops = ops
	return s
}

// dropBackends removes one backend at a time, last first: all its ops go,
// the backends above it are renumbered down, and Config.Backends drops.
func (sh *shrinker) dropBackends(s Scenario) (Scenario, bool) {
	changed := false
	for b := s.Config.Backends - 1; b >= 0 && s.Config.Backends > 1; b-- {
		c := withOps(s, withoutBackend(s.Ops, b))
		c.Config.Backends--
		changed = sh.try(&s, c) || changed
	}
	return s, changed
}

// withoutStaleLanding forgets where a group's restart cut and its cancel
// landed once the member they belong to is gone.
func withoutStaleLanding(g Op) Op {
	if !hasMember(g, OpHostRestart) {
		g.Cut, g.CutLocal = 0, 0
	}
	if !hasMember(g, OpCancel) {
		g.Cancel = sim.CancelPoint{}
	}
	return g
}

func withoutBackend(ops []Op, b int) []Op {
	out := make([]Op, 0, len(ops))
	for _, o := range ops {
		if o.Kind == OpGroup {
			o.Ops = withoutBackend(o.Ops, b)
			if len(o.Ops) == 0 {
				continue
			}
			o.Schedule = scheduleWithoutBackend(o.Schedule, b)
			if o.Cancel.Actor != "" {
				o.Cancel.Actor = scheduleWithoutBackend([]string{o.Cancel.Actor}, b)[0]
			}
			o = withoutStaleLanding(o)
			out = append(out, o)
			continue
		}
		if hasBackend(o.Kind) {
			if o.Backend == b {
				continue
			}
			if o.Backend > b {
				o.Backend--
			}
		}
		out = append(out, o)
	}
	return out
}

// dropChunks is ddmin's complement step over the top-level ops: remove
// chunks of half the ops, then quarters, and so on down to single ops,
// from the end backwards. Run stops at the first violation, so everything
// after it goes in the first few tries.
func (sh *shrinker) dropChunks(s Scenario) (Scenario, bool) {
	changed := false
	for k := (len(s.Ops) + 1) / 2; k >= 1; k /= 2 {
		// Chunks [hi-k, hi) from the end: a removal leaves the ops before
		// lo where they were, so the walk continues at lo either way.
		for hi := len(s.Ops); hi > 0 && !sh.stopped(); {
			lo := max(0, hi-k)
			if len(s.Ops) > hi-lo {
				ops := slices.Concat(s.Ops[:lo], s.Ops[hi:])
				changed = sh.try(&s, withOps(s, ops)) || changed
			}
			hi = lo
		}
	}
	return s, changed
}

// simplifyGroups tries, for every group from the last: a group of one
// becomes its op; a larger one is unwrapped into its members run one after
// another; failing that, its members are dropped one at a time.
func (sh *shrinker) simplifyGroups(s Scenario) (Scenario, bool) {
	changed := false
	for i := len(s.Ops) - 1; i >= 0 && !sh.stopped(); i-- {
		if i >= len(s.Ops) || s.Ops[i].Kind != OpGroup {
			continue
		}
		members := s.Ops[i].Ops
		unwrapped := slices.Concat(s.Ops[:i], cloneOps(members), s.Ops[i+1:])
		if sh.try(&s, withOps(s, unwrapped)) {
			changed = true
			continue
		}
		for j := len(members) - 1; j >= 0 && len(members) > 1; j-- {
			g := s.Ops[i] // the schedule stays: its other actors keep their turns
			g.Ops = slices.Delete(slices.Clone(members), j, j+1)
			g = withoutStaleLanding(g)
			ops := cloneOps(s.Ops)
			ops[i] = g
			if sh.try(&s, withOps(s, ops)) {
				changed = true
				members = s.Ops[i].Ops
			}
		}
		if len(members) == 1 {
			ops := cloneOps(s.Ops)
			ops[i] = members[0]
			changed = sh.try(&s, withOps(s, ops)) || changed
		}
	}
	return s, changed
}

// dropFaultPairs removes two fault ops of one backend together (a crash and
// the restart after it, say): either alone may change the failure while
// both together do not. Pairs are consecutive among that backend's faults.
func (sh *shrinker) dropFaultPairs(s Scenario) (Scenario, bool) {
	changed := false
	for i := len(s.Ops) - 1; i >= 0 && !sh.stopped(); i-- {
		if i >= len(s.Ops) || !isFaultOp(s.Ops[i]) || s.Ops[i].Kind == OpHostRestart {
			continue
		}
		for j := i + 1; j < len(s.Ops); j++ {
			o := s.Ops[j]
			if !isFaultOp(o) || o.Kind == OpHostRestart || o.Backend != s.Ops[i].Backend {
				continue
			}
			ops := slices.Concat(s.Ops[:i], s.Ops[i+1:j], s.Ops[j+1:])
			changed = sh.try(&s, withOps(s, ops)) || changed
			break
		}
	}
	return s, changed
}

// dropLeaves removes single ops (group members included) that match, from
// the last backwards.
func (sh *shrinker) dropLeaves(s Scenario, match func(Op) bool) (Scenario, bool) {
	changed := false
	for i := Steps(s.Ops) - 1; i >= 0 && !sh.stopped(); i-- {
		if !match(leafAt(s.Ops, i)) {
			continue
		}
		changed = sh.try(&s, withOps(s, withLeaf(s.Ops, i, nil))) || changed
	}
	return s, changed
}

// editLeaves tries replacing every single op (group members included) with
// each of its simpler forms in turn, keeping the first that still fails.
func (sh *shrinker) editLeaves(s Scenario, simpler func(Op) []Op) (Scenario, bool) {
	changed := false
	for i := Steps(s.Ops) - 1; i >= 0 && !sh.stopped(); i-- {
		for _, r := range simpler(leafAt(s.Ops, i)) {
			if sh.try(&s, withOps(s, withLeaf(s.Ops, i, &r))) {
				changed = true
				break
			}
		}
	}
	return s, changed
}

// simplerOps are the one-field simplifications of an op, simplest first:
// an exec with no writes (or one), wait rather than defer, writes visible
// at once rather than staged, an early retry
// rather than a due one (no implied advance), a lost identity that still
// reports an id.
func simplerOps(o Op) []Op {
	var out []Op
	switch o.Kind {
	case OpExec:
		for _, w := range []int{0, 1} {
			if w < o.Writes {
				c := o
				c.Writes = w
				out = append(out, c)
			}
		}
		if o.Mode == Defer {
			c := o
			c.Mode = Wait
			out = append(out, c)
		}
		if o.Staged {
			c := o
			c.Staged = false
			out = append(out, c)
		}
		if o.Size > 0 {
			c := o
			c.Size = 0
			out = append(out, c)
		}
	case OpRetry:
		if !o.Early {
			c := o
			c.Early = true
			out = append(out, c)
		}
	case OpPlant:
		if o.Target != 0 {
			c := o
			c.Target, c.TargetAhead = 0, false
			out = append(out, c)
		}
		if o.Fence != sim.FenceCurrent {
			c := o
			c.Fence = sim.FenceCurrent
			out = append(out, c)
		}
	case OpWrite:
		if o.Delete {
			c := o
			c.Delete = false
			out = append(out, c)
		}
		for _, n := range []int{0, 2} {
			if n < o.Files {
				c := o
				c.Files = n
				out = append(out, c)
			}
		}
		if o.Size > 0 {
			c := o
			c.Size = 0
			out = append(out, c)
		}
	case OpLoseIdentity:
		if o.None {
			c := o
			c.None = false
			out = append(out, c)
		}
	}
	return out
}

// lowerBackends moves an op to backend 0, or failing that to the backend
// below its own: once no op names the last backend, drop-backend removes it.
func lowerBackends(o Op) []Op {
	if !hasBackend(o.Kind) || o.Backend == 0 {
		return nil
	}
	var out []Op
	for _, b := range []int{0, o.Backend - 1} {
		if len(out) == 0 || out[0].Backend != b {
			c := o
			c.Backend = b
			out = append(out, c)
		}
	}
	return out
}

// minShrinkAdvance is the shortest advance halving produces: below a
// millisecond the trace (millisecond precision) cannot show the difference.
const minShrinkAdvance = time.Millisecond

// shorterAdvances are the shorter forms of an advance, shortest first: the
// smallest generated step, the generated step just below it, and its half.
func shorterAdvances(o Op) []Op {
	if o.Kind != OpAdvance {
		return nil
	}
	var durs []time.Duration
	add := func(d time.Duration) {
		if d >= minShrinkAdvance && d < o.Dur && !slices.Contains(durs, d) {
			durs = append(durs, d)
		}
	}
	add(advanceSteps[0])
	for i := len(advanceSteps) - 1; i >= 0; i-- {
		if advanceSteps[i] < o.Dur {
			add(advanceSteps[i])
			break
		}
	}
	add((o.Dur / 2).Truncate(time.Millisecond))
	slices.Sort(durs)
	out := make([]Op, len(durs))
	for i, d := range durs {
		out[i] = Op{Kind: OpAdvance, Dur: d}
	}
	return out
}

// mergeAdvances replaces two adjacent advances with one of their sum.
func (sh *shrinker) mergeAdvances(s Scenario) (Scenario, bool) {
	changed := false
	for i := len(s.Ops) - 2; i >= 0 && !sh.stopped(); i-- {
		if i+1 >= len(s.Ops) || s.Ops[i].Kind != OpAdvance || s.Ops[i+1].Kind != OpAdvance {
			continue
		}
		sum := Op{Kind: OpAdvance, Dur: s.Ops[i].Dur + s.Ops[i+1].Dur}
		ops := slices.Concat(s.Ops[:i], []Op{sum}, s.Ops[i+2:])
		changed = sh.try(&s, withOps(s, ops)) || changed
	}
	return s, changed
}

// carryAdvances removes an advance, top level or in a group, and adds its
// time to the next top-level advance after it, across the ops between
// (mergeAdvances only joins neighbours). Time that moved early, while a
// group was in flight or before a fault, often only has to have passed by
// the time the next advance fires the alarm: an exec in a group with an
// advance, a lost identity, then a short advance becomes the exec, the
// lost identity and one advance. A group left with one member is unwrapped
// by the groups pass.
func (sh *shrinker) carryAdvances(s Scenario) (Scenario, bool) {
	changed := false
	for i := len(s.Ops) - 2; i >= 0 && !sh.stopped(); i-- {
		if i+1 >= len(s.Ops) {
			continue
		}
		next := slices.IndexFunc(s.Ops[i+1:], func(o Op) bool { return o.Kind == OpAdvance })
		if next < 0 {
			continue
		}
		next += i + 1
		switch o := s.Ops[i]; o.Kind {
		case OpAdvance:
			if next == i+1 {
				continue // neighbours: mergeAdvances
			}
			ops := cloneOps(s.Ops)
			ops[next].Dur += o.Dur
			changed = sh.try(&s, withOps(s, slices.Delete(ops, i, i+1))) || changed
		case OpGroup:
			for j := len(o.Ops) - 1; j >= 0 && len(o.Ops) > 1 && i < len(s.Ops) && s.Ops[i].Kind == OpGroup; j-- {
				if j >= len(s.Ops[i].Ops) || s.Ops[i].Ops[j].Kind != OpAdvance {
					continue
				}
				ops := cloneOps(s.Ops)
				g := ops[i]
				ops[next].Dur += g.Ops[j].Dur
				g.Ops = slices.Delete(slices.Clone(g.Ops), j, j+1)
				ops[i] = withoutStaleLanding(g)
				changed = sh.try(&s, withOps(s, ops)) || changed
			}
		}
	}
	return s, changed
}

// simplifyProfile turns the fault kinds that are on off, one at a time, in
// kind order.
func (sh *shrinker) simplifyProfile(s Scenario) (Scenario, bool) {
	changed := false
	for _, k := range faults.Kinds() {
		if !s.Profile.On(k) || sh.stopped() {
			continue
		}
		c := s
		c.Profile.Set(k, 0)
		changed = sh.try(&s, c) || changed
	}
	return s, changed
}

// certainFaults makes a per-call fault kind fire at every call (value 1),
// one kind at a time. A kind draws once a call whatever its value, so the
// streams stay aligned; ops that only burned draws to reach the one that
// fires can then go.
func (sh *shrinker) certainFaults(s Scenario) (Scenario, bool) {
	changed := false
	for _, k := range faults.Kinds() {
		if k.Event() || !s.Profile.On(k) || s.Profile.Get(k) == 1 || sh.stopped() {
			continue
		}
		c := s
		c.Profile.Set(k, 1)
		changed = sh.try(&s, c) || changed
	}
	return s, changed
}

// dropConfig tries s with one config knob back at its default; drop
// reports whether there was anything to drop.
func (sh *shrinker) dropConfig(s Scenario, drop func(*Config) bool) (Scenario, bool) {
	c := s
	if !drop(&c.Config) {
		return s, false
	}
	changed := sh.try(&s, c)
	return s, changed
}

// dropMaxEntries returns to the default batch budget.
func dropMaxEntries(c *Config) bool {
	had := c.MaxEntries != 0
	c.MaxEntries = 0
	return had
}

// dropMaxBytes returns to the default byte budget.
func dropMaxBytes(c *Config) bool {
	had := c.MaxBytes != 0
	c.MaxBytes = 0
	return had
}

// dropMaxWall returns to no wall-time budget.
func dropMaxWall(c *Config) bool {
	had := c.MaxWallTime != 0
	c.MaxWallTime = 0
	return had
}

// dropBackendIDs names the backends by their labels again.
func dropBackendIDs(c *Config) bool {
	had := c.BackendIDs != ""
	c.BackendIDs = ""
	return had
}

// dropPushBudget returns to the default push batch budget.
func dropPushBudget(c *Config) bool {
	had := c.PushEntries != 0 || c.PushBytes != 0
	c.PushEntries, c.PushBytes = 0, 0
	return had
}

// lowerMaxAttempts tries one attempt, then one fewer than now: a scenario
// that exhausts an intent then needs fewer retries to do it.
func (sh *shrinker) lowerMaxAttempts(s Scenario) (Scenario, bool) {
	n := s.Config.Retry.MaxAttempts
	if n == 0 {
		n = workspace.DefaultMaxAttempts
	}
	for _, a := range []int{1, n - 1} {
		if a < 1 || a >= n || sh.stopped() {
			continue
		}
		c := s
		c.Config.Retry.MaxAttempts = a
		if sh.try(&s, c) {
			return s, true
		}
	}
	return s, false
}

// hasBackend reports whether an op of kind k names a backend.
func hasBackend(k OpKind) bool {
	switch k {
	case OpExec, OpWrite, OpRetry, OpCrash, OpRestart, OpLoseIdentity, OpTruncate, OpInject, OpPlant, OpPull:
		return true
	}
	return false
}

// isFaultOp reports whether o injects a fault (an armed one included).
func isFaultOp(o Op) bool {
	switch o.Kind {
	case OpCrash, OpRestart, OpLoseIdentity, OpTruncate, OpHostRestart, OpInject:
		return true
	}
	return false
}

func cloneOps(ops []Op) []Op {
	out := slices.Clone(ops)
	for i := range out {
		if out[i].Kind == OpGroup {
			out[i].Ops = cloneOps(out[i].Ops)
			if out[i].Schedule != nil {
				out[i].Schedule = slices.Clone(out[i].Schedule)
			}
		}
	}
	return out
}

// leafAt returns the i-th op that is not a group, in print order (i <
// Steps(ops)).
func leafAt(ops []Op, i int) Op {
	for _, o := range ops {
		if o.Kind != OpGroup {
			if i == 0 {
				return o
			}
			i--
			continue
		}
		if i < len(o.Ops) {
			return o.Ops[i]
		}
		i -= len(o.Ops)
	}
	panic("scenarios: leafAt out of range")
}

// withLeaf returns a copy of ops with the i-th non-group op replaced by
// *r, or removed when r is nil; a group left empty goes too. ops itself is
// not modified.
func withLeaf(ops []Op, i int, r *Op) []Op {
	out := cloneOps(ops)
	for t := range out {
		o := &out[t]
		if o.Kind != OpGroup {
			if i > 0 {
				i--
				continue
			}
			if r == nil {
				return slices.Delete(out, t, t+1)
			}
			*o = *r
			return out
		}
		if i >= len(o.Ops) {
			i -= len(o.Ops)
			continue
		}
		if r != nil {
			o.Ops[i] = *r
			return out
		}
		if o.Ops = slices.Delete(o.Ops, i, i+1); len(o.Ops) == 0 {
			return slices.Delete(out, t, t+1)
		}
		return out
	}
	panic("scenarios: withLeaf out of range")
}
