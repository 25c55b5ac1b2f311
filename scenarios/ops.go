package scenarios

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim"
)

// OpKind names one operation of the scenario language.
type OpKind int

const (
	// OpExec runs a command on a backend that makes Writes container-side
	// writes, then syncs in Mode (wait or defer).
	OpExec OpKind = iota
	// OpWrite is a host-side write, so the next pre-exec push carries data;
	// with Delete, a host-side delete of the backend's latest acknowledged
	// host write (of a path never written when there is none).
	OpWrite
	// OpRetry calls RetryPendingSync explicitly: now (Early) or once the
	// backend's intent is due (time advances to its NotBefore first).
	OpRetry
	// OpAdvance moves virtual time forward by Dur; alarms fire on the way.
	OpAdvance
	// OpCrash kills a backend's container process (it restarts later).
	OpCrash
	// OpRestart replaces the container: new runtime id, truncated log.
	OpRestart
	// OpLoseIdentity makes connections report another runtime id (or none,
	// with None) while the log stays intact.
	OpLoseIdentity
	// OpTruncate shortens the remote log under a surviving connection.
	OpTruncate
	// OpHostRestart restarts the host: every operation in flight is cut.
	OpHostRestart
	// OpGroup runs its ops concurrently, interleaved at blocking points.
	OpGroup
	// OpInject arms one fault on a backend's container (Armed): the next
	// call at its site fails with it. It comes after OpGroup so that
	// Weights, which the generator draws from, does not include it: the
	// generator never draws it and seeded scenarios are unchanged.
	OpInject
	// OpPlant is a host-written intent: the host stores {backend, the
	// container's current runtime id (or a stale one, or none), Attempt, NotBefore
	// now} itself, as a host may (SPEC 4: the pre-check fires only for such
	// intents, attempt > maxAttempts). Outside Weights like OpInject; the
	// generator draws it on its own, rarely.
	OpPlant
	// OpCancel, inside a group only, cancels one of the group's operations
	// at a drawn scheduling decision: one parked (in the FIFO, on a shared
	// connect) before any call of its own, if there is one then. Outside
	// Weights; the generator draws it on its own.
	OpCancel
	// OpPull is an explicit Workspace.Pull (pullOnce, SPEC 6.3): the one
	// operation before the tail whose failure reaches the caller as a Go
	// error, so its class (errors.Is against the SPEC's sentinels) can be
	// held to the record. Outside Weights; the generator turns some
	// retries into pulls on a stream of its own (addPulls).
	OpPull
)

var opNames = [...]string{"exec", "write", "retry", "advance", "crash", "restart", "lose-identity", "truncate", "host-restart", "group", "inject", "plant", "cancel", "pull"}

// String returns the op's name in the scenario text ("exec", "group").
func (k OpKind) String() string {
	if int(k) < len(opNames) {
		return opNames[k]
	}
	return fmt.Sprintf("op(%d)", int(k))
}

// opKindByName is the inverse of opNames for the parser.
func opKindByName(name string) (OpKind, bool) {
	for i, n := range opNames {
		if n == name {
			return OpKind(i), true
		}
	}
	return 0, false
}

// InGroup reports whether ops of kind k may run inside a group: the ones that
// run as actors (exec, write, retry), a host restart (which cuts the group in
// flight) and an advance (time moves while the others are in flight, so an
// alarm-driven retry can race them). Fault ops are the driver's, between steps.
func (k OpKind) InGroup() bool {
	switch k {
	case OpExec, OpWrite, OpRetry, OpHostRestart, OpAdvance, OpCancel, OpPull:
		return true
	}
	return false
}

// Mode is an exec's sync mode.
type Mode int

const (
	// Wait pulls right after the command (SyncWait).
	Wait Mode = iota
	// Defer captures a target and stores an intent instead (SyncDefer).
	Defer
)

// String returns "wait" or "defer", as the scenario text writes it.
func (m Mode) String() string {
	if m == Defer {
		return "defer"
	}
	return "wait"
}

// Op is one step of a scenario. Which fields matter depends on Kind; the
// others stay zero so that equal ops compare equal.
type Op struct {
	Kind    OpKind
	Backend int           // exec, write, retry and the fault ops
	Mode    Mode          // exec
	Writes  int           // exec: container-side writes the command makes
	Staged  bool          // exec: the writes become visible only on settle
	Size    int           // exec, write: each written file padded to this many bytes (0: its own short content; never with Staged or Delete)
	Early   bool          // retry: call now rather than when due
	None    bool          // lose-identity: report no runtime id at all
	Clean   bool          // host-restart: a clean shutdown (stores closed), not a crash
	Delete  bool          // write: delete a host file instead of writing one
	Files   int           // write: host files saved one after another (0: one; never with Delete)
	Dur     time.Duration // advance
	Ops     []Op          // group: run concurrently
	// inject: the fault, its call site and (stream sites) the entries
	// served before it fires.
	Fault faults.Kind
	On    faults.Site
	After int
	// plant: the intent's attempt, the runtime id it names (Fence: the
	// container's current one, a stale one or none at all), and
	// its target: none (0), or the remote's Target-th fetchable entry at
	// plant time, a path inside its revision ({currentRev, null} past the
	// last; sim.HostIntent), counted from the baseline or, with
	// TargetAhead ("target=+K"), from the backend's fetch cursor
	// (sim.Host.PlantIntentAhead).
	Attempt     int
	Fence       sim.Fence
	Target      int
	TargetAhead bool
	// group: a written schedule (schedule.go), the local name of the actor
	// to run at each choice point of the group's step; nil: the strategy
	// decides. Cut, with a host-restart member, is the scheduling decisions
	// after which the restart cuts the group, CutLocal the calls into the
	// local store after which it does (at most one of the two; 0 and 0:
	// drawn from the op's stream). Cancel, with a cancel member, is where
	// the cancel lands: the decision and the operation (zero: drawn).
	Schedule []string
	Cut      int
	CutLocal int
	Cancel   sim.CancelPoint
}

// landed reports whether a group has anything for its schedule line.
func (o Op) landed() bool {
	return o.Schedule != nil || o.Cut > 0 || o.CutLocal > 0 || o.Cancel.Decision > 0
}

// withLanding is o with the schedule line's content: how its group ran.
func (o Op) withLanding(ps parsedSchedule) Op {
	o.Schedule, o.Cut, o.CutLocal, o.Cancel = ps.schedule, ps.cut, ps.cutLocal, ps.cancel
	return o
}

// Armed returns an inject op's fault as the container takes it.
func (o Op) Armed() faults.Armed { return faults.Armed{Kind: o.Fault, On: o.On, After: o.After} }

// String renders the op in the scenario language, one line (a group spans
// several lines, its members indented).
func (o Op) String() string {
	var b strings.Builder
	b.Grow(48) // one op's line, most of the time
	o.format(&b, "")
	return strings.TrimSuffix(b.String(), "\n")
}

func (o Op) format(b *strings.Builder, indent string) {
	b.WriteString(indent)
	b.WriteString(o.Kind.String())
	switch o.Kind {
	case OpExec:
		writeBackend(b, o.Backend)
		b.WriteString(" " + o.Mode.String() + " writes=" + strconv.Itoa(o.Writes))
		if o.Staged {
			b.WriteString(" staged")
		}
		if o.Size > 0 {
			b.WriteString(" size=" + strconv.Itoa(o.Size))
		}
	case OpWrite, OpCrash, OpRestart, OpTruncate, OpPull:
		writeBackend(b, o.Backend)
		if o.Delete {
			b.WriteString(" delete")
		}
		if o.Files > 1 {
			b.WriteString(" files=" + strconv.Itoa(o.Files))
		}
		if o.Kind == OpWrite && o.Size > 0 {
			b.WriteString(" size=" + strconv.Itoa(o.Size))
		}
	case OpRetry:
		writeBackend(b, o.Backend)
		if o.Early {
			b.WriteString(" early")
		} else {
			b.WriteString(" due")
		}
	case OpLoseIdentity:
		writeBackend(b, o.Backend)
		if o.None {
			b.WriteString(" none")
		}
	case OpAdvance:
		b.WriteString(" " + o.Dur.String())
	case OpHostRestart:
		if o.Clean {
			b.WriteString(" clean")
		}
	case OpPlant:
		writeBackend(b, o.Backend)
		b.WriteString(" attempt=" + strconv.Itoa(o.Attempt))
		if o.Fence != sim.FenceCurrent {
			b.WriteString(" " + o.Fence.String())
		}
		if o.Target != 0 {
			b.WriteString(" target=")
			if o.TargetAhead {
				b.WriteString("+")
			}
			b.WriteString(strconv.Itoa(o.Target))
		}
	case OpInject:
		writeBackend(b, o.Backend)
		b.WriteString(" " + o.Fault.String() + " on=" + string(o.On))
		if o.After != 0 {
			b.WriteString(" after=" + strconv.Itoa(o.After))
		}
	case OpGroup:
		b.WriteString("\n")
		for _, m := range o.Ops {
			m.format(b, indent+"  ")
		}
		if o.landed() {
			b.WriteString(indent + "  " + formatSchedule(o) + "\n")
		}
		b.WriteString(indent + "end")
	}
	b.WriteString("\n")
}

// writeBackend writes " b<n>", the backend an op names (fmt is not used
// here: every op of every run is rendered for its key, opKeys).
func writeBackend(b *strings.Builder, n int) {
	b.WriteString(" b")
	b.WriteString(strconv.Itoa(n))
}

// Steps counts ops, members of groups included: the size a shrinker reports.
func Steps(ops []Op) int {
	n := 0
	for _, o := range ops {
		if o.Kind == OpGroup {
			n += Steps(o.Ops)
			continue
		}
		n++
	}
	return n
}
