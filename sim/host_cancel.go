package sim

import (
	"context"
	"strconv"
	"strings"

	"github.com/syncsim/syncsim/faults"
)

// Cancellation. An operation's caller may give up on it: the simulator
// cancels the operation's context at a drawn scheduling decision of a group
// (StepCancel) and wakes it if it is parked on a gate, where the workspace
// must abandon its wait cleanly: the FIFO's successors walk back past the
// abandoned entry, a shared connect goes on for its other waiters.
//
// Two kinds of operation are cancelled, the ones whose outcome the record
// settles exactly:
//
//   - one parked before any call of its own: property cancel, it returns
//     the context's error, made no runtime, intent-store or local-store
//     call, and changes nothing the model knows;
//   - an exec about to read its command's event stream: that read fails
//     with the context's error (the runtime checks it), and the exec takes
//     its cancel branch (SPEC 3.2 deviation in workspace/exec.go): in wait
//     mode it cancels the stream and stores an unfenced intent, in defer
//     mode it drains the stream anyway and captures its target. The judge
//     reads the cancelled read from the record (readExec) and the model
//     predicts the rest;
//   - a pull in flight (a retry's, or a wait-mode exec's post-command
//     pull) at a fetch or a read of its change stream: that call fails
//     with the context's error, which is no transport failure, so the pull
//     fails without a reconnect. The record shows where it stopped; the
//     model predicts the failed pull's outcome (a retry reschedules at
//     attempt+1 or is exhausted, a wait-mode exec stores an unfenced
//     intent: the intent stays), and the cursor properties check that the
//     cursor never passes what was applied.
//
// The cancel comes at the first decision, at or after the drawn one, at
// which some operation can be cancelled so.

// opContext gives an operation of the current step its own cancellable
// context.
func (h *Host) opContext(actor string) context.Context {
	h.initCancels()
	ctx, cancel := context.WithCancel(h.ctx)
	h.ops.cancels[actor] = cancel
	h.ops.inStep = append(h.ops.inStep, actor)
	return ctx
}

func (h *Host) initCancels() {
	if h.ops.cancels == nil {
		h.ops.cancels, h.ops.started, h.ops.cancelled = map[string]context.CancelFunc{}, map[string]bool{}, map[string]bool{}
		h.ops.hit, h.ops.lastPoint = map[string]bool{}, map[string]string{}
	}
}

// endCancels releases the step's contexts.
func (h *Host) endCancels() {
	for _, name := range h.ops.inStep {
		h.ops.cancels[name]()
		h.ops.hit[name] = true
	}
	clear(h.ops.cancels)
	clear(h.ops.started)
	clear(h.ops.cancelled)
	clear(h.ops.lastPoint)
	h.ops.inStep = h.ops.inStep[:0]
}

// maxCancelSwitches bounds the decision a cancel is drawn at; it lands at
// the first decision from there on where an operation can be cancelled.
const maxCancelSwitches = 24

// StepCancel runs the spawned actors like Step, and after a drawn number of
// scheduling decisions cancels one operation that can be cancelled there
// (drawn among them, in spawn order); with none, nothing is cancelled. It
// draws from draws, the operation's own stream, so a cancel moves no other
// draw of the run and no other op moves it. A cancel written with
// SetCancel draws nothing: it lands where it says.
func (h *Host) StepCancel(draws interface{ IntN(int) int }) *Violation {
	h.cut.cancelDraws, h.cut.lastCancel = draws, CancelPoint{}
	h.cut.cancel = true
	defer func() { h.cut.cancel, h.cut.cancelPlan = false, CancelPoint{} }()
	n := h.cut.cancelPlan.Decision
	if n == 0 {
		// Skewed towards the step's first decisions, where operations
		// still wait in their backend's FIFO or on a shared connect
		// (cancel-abandoned: SPEC 5.1's leaving caller, whose successors
		// must keep waiting for the one running); every decision up to
		// the bound stays possible for the cancels of a running exec or
		// pull.
		n = 1 + draws.IntN(1+draws.IntN(maxCancelSwitches))
	}
	return h.step(n)
}

// A CancelPoint is where a cancel landed: the scheduling decision of its
// step (counting every decision, choice point or not) and the local name
// of the operation it cancelled (the name a schedule uses). The zero
// CancelPoint is no cancel.
type CancelPoint struct {
	Decision int
	Actor    string
}

// SetCancel makes the next StepCancel cancel at p instead of drawing: at
// decision p.Decision, or the first one after it at which an operation can
// be cancelled, it cancels p.Actor if that one can be, else the earliest
// spawned that can. With the step's schedule written too, the cancel
// lands where it landed when it was recorded, whatever the seed.
func (h *Host) SetCancel(p CancelPoint) { h.cut.cancelPlan = p }

// LastCancel returns where the last StepCancel's cancel landed (the zero
// CancelPoint when it found nothing to cancel).
func (h *Host) LastCancel() CancelPoint { return h.cut.lastCancel }

// cancelHook is StepCancel's switch hook: it notes which operations have
// reached a blocking point of their own and cancels at the n-th decision.
func (h *Host) cancelHook(from, point string, seen *int, n int) {
	h.initCancels()
	switch point {
	case "run", "gate", "exit", tickWaitPoint:
	default:
		h.ops.started[from] = true
		h.ops.lastPoint[from] = point
	}
	if *seen++; *seen < n || h.cut.cancelDone {
		return
	}
	var idle []string
	for _, name := range h.ops.inStep {
		if h.cancelKind(name) != "" {
			idle = append(idle, name)
		}
	}
	if len(idle) == 0 {
		return // not yet: the cancel waits for a decision where one can land
	}
	h.cut.cancelDone = true
	name := h.cancelVictim(idle)
	h.cut.lastCancel = CancelPoint{Decision: *seen, Actor: h.rt.LocalName(name)}
	kind := h.cancelKind(name)
	h.ops.cancels[name]()
	h.ops.hit[name] = true
	if kind == "cancel-abandoned" {
		h.rt.Interrupt(name)
		h.ops.cancelled[name] = true
	}
	h.stats.Faults[kind]++
	h.event(name, "cancel", "decision="+strconv.Itoa(*seen), "kind="+strings.TrimPrefix(kind, "cancel-"))
}

// cancelVictim picks the operation to cancel among idle (in spawn order):
// the written one when there is a written cancel, else a draw.
func (h *Host) cancelVictim(idle []string) string {
	if h.cut.cancelPlan.Decision == 0 {
		return idle[h.cut.cancelDraws.IntN(len(idle))]
	}
	for _, name := range idle {
		if h.rt.LocalName(name) == h.cut.cancelPlan.Actor {
			return name
		}
	}
	return idle[0]
}

// cancelKind says how operation name can be cancelled at this decision
// (the reach counter it counts under), or "" when it cannot.
func (h *Host) cancelKind(name string) string {
	parked := h.rt.Parked(name)
	last := h.ops.lastPoint[name]
	switch {
	case h.finished(name):
		return "" // its workspace call returned; it only re-arms the alarm now
	case !h.ops.started[name] && parked:
		return "cancel-abandoned" // parked before any call of its own
	case parked || h.ops.cancelled[name]:
		return ""
	case strings.Contains(name, ".exec.") && strings.HasSuffix(last, "."+string(faults.OpEventNext)):
		return "cancel-exec" // its next event read fails
	case strings.HasSuffix(last, "."+string(faults.OpFetch)) || strings.HasSuffix(last, "."+string(faults.OpStreamNext)):
		return "cancel-pull" // its pull's next call fails
	}
	return ""
}

// finished reports whether operation name's workspace call has returned
// in this step (a request then re-arms the Waker, which may park it on the
// Waker's lock).
func (h *Host) finished(name string) bool {
	for _, f := range h.ops.done {
		if f.actor == name {
			return true
		}
	}
	return false
}

// endCancelStep notes a cancelling step that found nothing to cancel.
func (h *Host) endCancelStep() {
	if !h.cut.cancelDone {
		h.stats.Faults["cancel-missed"]++
		h.event("-", "cancel", "none")
	}
	h.cut.cancelDone = false
}

// tickWaitPoint is where a tick actor waits its drawn decisions: not a call
// of an operation.
const tickWaitPoint = "tick-wait"
