package sim

import (
	"strings"

	"github.com/syncsim/syncsim/faults"
)

// Blocking points after a call returns. Every call of the intent store
// (List included), the local store and a backend is a blocking point
// before it runs (Hooks.Block) and again after it returns
// (faults.ReturnHooks): once a call has returned, another actor may run
// before the caller acts on what the call gave it. That is the window of
// every read-then-act race (read the store, another actor writes it, act
// on the stale read), and when the act is no call at all — the Waker
// arming its timer from a listing, an operation handing its result back —
// the point before the next call never opens it.
//
// A post-return point is a choice point only when another actor can run:
// with the caller alone runnable it costs a counter and a length test, and
// no decision, switch or hook comes of it (alone). The same holds for the
// point before the intent store's List, new too: the Waker's listing was no
// blocking point before. The points before every other call take a
// decision even alone, as they always did.
//
// A contested post-return point takes part in the Run like any other
// decision: the strategy picks, PCT counts it as a choice point and may
// place a change point there, a written schedule names who runs. But the
// host's cuts and cancels do not count it (step's OnSwitch hook), so a
// host restart or a cancel placed after the n-th decision lands where it
// did before these points existed. And a host restart never cuts while an
// operation is held at a post-return point (heldAfter): it waits for the
// next counted decision where none is. A crash there would end an
// operation between a durable effect (an intent stored, a host write
// saved) and its return, an outcome the judge cannot account for yet: it
// learns an operation's intent writes and acknowledged host writes when
// the operation returns. Before these points existed no operation could
// stand there either: each such effect was its operation's last call.
//
// The host's own reads for its checks (the intent table, the local
// listings, the alarm's bound) go to the stores past these wrappers and
// are never blocking points: a check must not perturb the run.

// returnSuffix ends the name of a post-return point: "<call point>/return".
const returnSuffix = "/return"

// isReturnPoint reports whether a blocking point is a post-return one.
func isReturnPoint(point string) bool { return strings.HasSuffix(point, returnSuffix) }

// returnPoint is a post-return point's name and its reach counter: the
// post-return preemptions that another actor used, per call kind
// ("preempt-after@store.list", "preempt-after@local.files",
// "preempt-after@runtime.fetch").
type returnPoint struct {
	name, reach string
	read        bool // an intent-store read: the strategy hears of it (ReadReturner)
}

// The intent store's reads.
const (
	storeGetPoint  = "store." + string(faults.StoreOpGet)
	storeListPoint = "store." + string(faults.StoreOpList)
)

// reachPreemptAfter prefixes the reach counters of post-return preemptions.
const reachPreemptAfter = "preempt-after@"

// returned is the blocking point after the call at point returned; kind
// names the call for the reach table. A preemption there counts when
// another actor completed a call of its own before the caller ran again.
func (h *Host) returned(point, kind string) {
	h.returns.count++
	if h.alone() {
		return
	}
	rt := h.rt
	p, ok := h.returns.points[point]
	if !ok {
		if h.returns.points == nil {
			h.returns.points = map[string]returnPoint{}
		}
		p = returnPoint{name: point + returnSuffix, reach: reachPreemptAfter + kind,
			read: point == storeGetPoint || point == storeListPoint}
		h.returns.points[point] = p
	}
	if p.read {
		if s, ok := rt.active.(ReadReturner); ok {
			s.ReadReturned()
		}
	}
	before := h.returns.count
	h.returns.heldAfter++
	rt.Block(p.name)
	h.returns.heldAfter--
	if h.returns.count != before {
		h.stats.Faults[p.reach]++
	}
}

// noteReturnDecision hears a decision at a post-return point in a step
// that may cut or cancel. Neither counts it, but an operation held there
// has made its last call already: a cancel must not take it for one about
// to make that call (cancelKind reads the operation's last point).
func (h *Host) noteReturnDecision(from, point string) {
	if h.cut.cancel && from != "" {
		h.initCancels()
		h.ops.lastPoint[from] = point
	}
}

// alone reports whether no other actor could run now (or no actor is
// running, or it is being unwound): a point added by issue 34 — after any
// call, before the intent store's List — is then no decision at all.
func (h *Host) alone() bool {
	a := h.rt.current
	return a == nil || a.dying || len(h.rt.runnable) < 2
}

// Return is the intent store's post-return point (faults.ReturnHooks).
func (r runtimeHooks) Return(point string) { r.h.returned(point, point) }

// Return is a container's post-return point: the call kind is the op,
// after the backend id (which may hold dots; op names hold none).
func (r containerHooks) Return(point string) {
	r.h.returned(point, "runtime."+point[strings.LastIndexByte(point, '.')+1:])
}

// blockHooks are the runtime's hooks without the post-return point: the
// local store wrapper's, because the host's own check of every local call
// (localStoreCheck) wraps it from outside and must see the call before
// another actor runs; it places the post-return point itself, after the
// check (localReturned).
type blockHooks struct{ r runtimeHooks }

var (
	_ faults.ReturnHooks = runtimeHooks{}
	_ faults.ReturnHooks = containerHooks{}
	_ faults.Hooks       = blockHooks{}
)

func (b blockHooks) Block(point string) { b.r.Block(point) }
func (b blockHooks) Actor() string      { return b.r.Actor() }

// localHooks are the local store wrapper's hooks (blockHooks).
func (h *Host) localHooks() faults.Hooks { return blockHooks{runtimeHooks{h.rt, h}} }

// localReturned is the local store's post-return point, after the host's
// check of the call; point is "local.<op>".
func (h *Host) localReturned(point string) { h.returned(point, point) }
