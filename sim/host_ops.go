package sim

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/syncsim/syncsim/scheduler"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/event"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/sim/ledger"
	"github.com/syncsim/syncsim/workspace"
)

// finished is one actor's operation as it ended, in completion order.
type finished struct {
	actor   string
	kind    string // exec, retry, write
	backend int
	mode    workspace.ExecSync
	writes  int
	path    string // write: the host-side path written
	size    int    // write: the size it was padded to (0: HostContent as it is)
	version int    // write: the path's version (ledger.ContentKey)
	stored  int    // write, delete: when it reached the local store (writeorder.go)
	exec    workspace.ExecResult
	retry   workspace.RetryResult
	pull    workspace.PullResult
	err     error
	// begun is when a retry's actor first ran: its pull read the start of
	// a wall-time budget no earlier (wallBudget).
	begun     time.Time
	storeMark int
	localMark int
	marks     []int
}

// actorName gives every operation a unique, stable actor name: the records
// of the runtime and the store are read back per actor. It ends in the
// backend's label, not its id, so that written schedules and corpus files
// name actors the same whatever ids a run gives its backends.
func (h *Host) actorName(kind string, b int) string {
	h.ops.seq++
	return "#" + strconv.Itoa(h.ops.seq) + "." + kind + "." + BackendLabel(b)
}

func (h *Host) recordMarks() []int {
	m := make([]int, len(h.backends.containers))
	for i, c := range h.backends.containers {
		m[i] = c.Mark()
	}
	return m
}

// SpawnExec starts an exec on backend b: a command making writes
// container-side writes, synced in mode.
func (h *Host) SpawnExec(b int, mode workspace.ExecSync, writes int) {
	h.spawnExec(b, mode, writes, false, -1)
}

// SpawnExecSized is SpawnExec whose command writes files of exactly size
// bytes each (the container's `write <n> <bytes>`): large enough, at a
// megabyte, for the SPEC's default byte budgets to stop a batch.
func (h *Host) SpawnExecSized(b int, mode workspace.ExecSync, writes, size int) {
	h.spawnExec(b, mode, writes, false, max(size, 0))
}

// SpawnStagedExec is SpawnExec whose command stages its writes: the
// remote takes them in only when its pre-fetch reconcile hook runs (a
// settle or a fetch; see the container's `stage` command).
func (h *Host) SpawnStagedExec(b int, mode workspace.ExecSync, writes int) {
	h.spawnExec(b, mode, writes, true, -1)
}

// spawnExec starts an exec; size < 0 leaves the files their own small
// content.
func (h *Host) spawnExec(b int, mode workspace.ExecSync, writes int, staged bool, size int) {
	name := h.actorName("exec", b)
	f := &finished{actor: name, kind: "exec", backend: b, mode: mode, writes: writes}
	command := "write " + strconv.Itoa(writes)
	details := []string{"op=exec", "mode=" + syncName(mode), "writes=" + strconv.Itoa(writes)}
	if size >= 0 {
		command += " " + strconv.Itoa(size)
		details = append(details, "size="+strconv.Itoa(size))
	}
	if staged {
		command = "stage " + strconv.Itoa(writes)
		details = append(details, "staged=true")
	}
	ws := h.stores.ws
	ctx := h.opContext(name)
	var id string // set below, once the actor has its local name; read when it runs
	var rearm bool
	h.rt.Go(name, func() {
		presizeStack()
		f.exec, f.err = ws.Exec(ctx, command, workspace.ExecOptions{Backend: id, Sync: mode})
		h.ops.done = append(h.ops.done, *f)
		if rearm {
			h.rearmAfterRequest()
		}
	})
	id = h.callID(b, name)
	rearm = h.rearmsAfterRequest(name)
	if !staged {
		for _, e := range drawEdits(h.actorDraw("edit", name)) {
			command += " " + e
			if !strings.Contains(e, "=") {
				e += "=true"
			}
			details = append(details, e)
		}
	}
	if code := exitCode(h.actorDraw("exit", name)); code != 0 {
		command += "; exit " + strconv.Itoa(code)
		details = append(details, "exit="+strconv.Itoa(code))
	}
	h.event(name, "start", details...)
}

// SpawnRetry starts an explicit RetryPendingSync on backend b.
func (h *Host) SpawnRetry(b int, why string) {
	name := h.actorName("retry", b)
	h.event(name, "start", "op=retry", "why="+why)
	h.spawnRetry(name, b, nil)
}

// spawnRetry starts a RetryPendingSync actor; done (if any) is told its
// error as it ends.
func (h *Host) spawnRetry(name string, b int, done func(error)) {
	f := &finished{actor: name, kind: "retry", backend: b}
	h.spawnOp(f, func(ws *workspace.Workspace, ctx context.Context, id string) {
		f.begun = h.clock.Now()
		f.retry, f.err = ws.RetryPendingSync(ctx, id, h.cfg.Budget)
	}, done)
}

// spawnOp starts the actor of operation f on the workspace of the moment:
// run makes the workspace call (with the operation's context and the
// backend id it passes, drawn once the actor is registered), then f is
// finished, and done (if any) is told its error.
func (h *Host) spawnOp(f *finished, run func(ws *workspace.Workspace, ctx context.Context, id string), done func(error)) {
	ws := h.stores.ws
	ctx := h.opContext(f.actor)
	var id string
	var rearm bool
	h.rt.Go(f.actor, func() {
		presizeStack()
		run(ws, ctx, id)
		h.ops.done = append(h.ops.done, *f)
		if done != nil {
			done(f.err)
		}
		if rearm {
			h.rearmAfterRequest()
		}
	})
	id = h.callID(f.backend, f.actor)
	rearm = h.rearmsAfterRequest(f.actor)
}

// callID is the backend id an operation on backend b passes to the
// workspace: the backend's own, or, for the default backend (b0), "" about
// half the time (SPEC 5.1: "" is the first registered backend). Drawn per
// actor on a stream of its own (key: its Run and local name), so it moves
// no other draw; call it after the actor is registered.
func (h *Host) callID(b int, name string) string {
	if b == 0 && h.actorDraw("default-id", name).IntN(2) == 0 {
		h.stats.Faults["default-id"]++
		return ""
	}
	return h.backends.names[b]
}

// SpawnWrite starts a host-side write on backend b's files. The path is
// derived from the op sequence so that every write is distinct.
func (h *Host) SpawnWrite(b int) { h.SpawnWrites(b, 1) }

// SpawnWrites starts a host that saves n files on backend b one after
// another (n < 1 writes one): each save is its own local-store write, and
// between two saves the actor reaches a blocking point ("<backend>.host-
// write"), so other operations can run between them, as when an editor
// saves while a command starts. A write that lands between two batches of
// a push must wait for the next push (SPEC 6.5, property push-target). The
// first file's path is that of SpawnWrite; the k-th after it adds ".k".
func (h *Host) SpawnWrites(b, n int) { h.SpawnWritesSized(b, n, 0) }

// SpawnWritesSized is SpawnWrites whose files are padded to exactly size
// bytes each (ledger.HostContentSized; size <= 0: their own short
// content): large enough, at a megabyte, for the SPEC's default push byte
// budget to stop a batch.
func (h *Host) SpawnWritesSized(b, n, size int) {
	n, size = max(n, 1), max(size, 0)
	name := h.actorName("write", b)
	base := hostPrefix + strconv.Itoa(h.ops.seq)
	path := base
	ws := h.stores.ws
	point := h.backends.names[b] + ".host-write"
	var id string
	// The first file's size and version: a rewrite's differ from the rest.
	first, version := size, 0
	h.rt.Go(name, func() {
		presizeStack()
		for k := range n {
			p, sz, v := path, first, version
			if k > 0 {
				h.rt.Block(point)
				p, sz, v = base+"."+strconv.Itoa(k), size, 0
			}
			err := ws.WriteFile(id, p, ledger.AppendHostContent(nil, ledger.ContentKey(p, v), sz))
			h.ops.done = append(h.ops.done, finished{actor: name, kind: "write", backend: b, path: p, size: sz, version: v, err: err, stored: h.observed.writes.take(h.rt.current)})
		}
	})
	id = h.callID(b, name)
	details := []string{"op=write", "path=" + path}
	if rw, ok := h.drawRewrite(b, name); ok {
		path, first, version = rw.path, rw.size, rw.version
		details = []string{"op=write", "path=" + path, "rewrite=" + strconv.Itoa(version)}
		if rw.size > 0 {
			details = append(details, "first-size="+strconv.Itoa(rw.size))
		}
	}
	if n > 1 {
		details = append(details, "files="+strconv.Itoa(n))
	}
	if size > 0 {
		details = append(details, "size="+strconv.Itoa(size))
	}
	h.event(name, "start", details...)
}

// rewriteOneIn: one host write in this many, when the backend has an
// acknowledged host write, rewrites one of them first instead of making a
// new path, with other content (another size): without it every host path
// was written once, so no push ever replaced a file the remote held and no
// local change ever superseded a pending one of the same path.
const rewriteOneIn = 3

// rewrite is a host write's first file saved over an acknowledged one.
type rewrite struct {
	path          string
	size, version int
}

// drawRewrite draws, on the write actor's own stream, whether its first
// file rewrites one of backend b's acknowledged host writes, which one,
// and its new content: the next version of the path (ledger.ContentKey),
// half the time at the same size when the path holds a padded content
// long enough (same length, other bytes: a store that reuses the buffer
// of a same-size file in place is then reached), else at another size.
func (h *Host) drawRewrite(b int, name string) (rewrite, bool) {
	acked := h.ledgers.acked.Acked(b)
	if len(acked) == 0 {
		return rewrite{}, false
	}
	r := h.actorDraw("rewrite", name)
	if r.IntN(rewriteOneIn) != 0 {
		return rewrite{}, false
	}
	rw := rewrite{path: acked[r.IntN(len(acked))]}
	rw.version = h.ledgers.acked.VersionOf(b, rw.path) + 1
	head := len(ledger.HostContent(ledger.ContentKey(rw.path, rw.version)))
	if cur := h.ledgers.acked.SizeOf(b, rw.path); cur >= head && r.IntN(2) == 0 {
		rw.size = cur
	} else {
		rw.size = head + 1 + r.IntN(48)
	}
	return rw, true
}

// SpawnDelete starts a host-side delete on backend b's files: of the
// latest host write acknowledged there and not deleted since, or, when
// there is none, of a path never written (a delete of nothing is still a
// change the next push carries).
func (h *Host) SpawnDelete(b int) {
	name := h.actorName("delete", b)
	path, ok := h.ledgers.acked.Latest(b)
	if !ok {
		path = hostPrefix + "never-" + strconv.Itoa(h.ops.seq)
	}
	h.event(name, "start", "op=delete", "path="+path)
	ws := h.stores.ws
	var id string
	h.rt.Go(name, func() {
		presizeStack()
		err := ws.DeleteFile(id, path)
		h.ops.done = append(h.ops.done, finished{actor: name, kind: "delete", backend: b, path: path, err: err, stored: h.observed.writes.take(h.rt.current)})
	})
	id = h.callID(b, name)
}

// actorStackBytes is what an actor's goroutine is grown to before it calls
// into the workspace. An operation may run on a fresh goroutine (the actor
// runtime starts one when its pool has none idle, actors_pool.go), which
// starts with a small stack and would otherwise double it several times
// deep inside the SUT, each time walking and copying every frame: in
// profiles that was the largest single cost of the harness after the SUT
// itself. Growing once, at the top, copies one
// frame. The pad is a little under a power of two because the runtime
// rounds the stack up to one: 7 KiB of pad gives an 8 KiB stack (16 KiB
// gave 32, and zeroing and copying the larger one cost more than the
// occasional growth past 8 KiB it saved: about 6% of a default run's CPU
// each step down, 16 to 12 to 7, in paired whole-process runs).
const actorStackBytes = 7 << 10

// presizeStack grows the calling goroutine's stack to about
// actorStackBytes. It has no other effect.
//
//go:noinline
func presizeStack() {
	var pad [actorStackBytes]byte
	touchStack(pad[:])
}

//go:noinline
func touchStack(b []byte) { b[len(b)-1] = 0 }

func syncName(m workspace.ExecSync) string {
	if m == workspace.SyncDefer {
		return "defer"
	}
	return "wait"
}

// Step runs every spawned actor to completion, interleaved, then checks the
// properties. It returns the first violation (also kept in Violation).
func (h *Host) Step() *Violation {
	return h.step(0)
}

// StepCut runs the spawned actors for at most switches scheduling decisions
// and then restarts the host, cutting every operation still in flight at
// its blocking point.
func (h *Host) StepCut(switches int) *Violation {
	return h.step(switches)
}

// StepCutLocal is StepCut counting only the decisions taken at a call into
// the workspace's local store: the crash lands right after the n-th local
// call of the group, inside a sequence of local writes (between a batch's
// apply and its cursor write, between two entries of a batch), which
// cutting after any decision reaches only rarely.
func (h *Host) StepCutLocal(n int) *Violation {
	h.cut.local = true
	defer func() { h.cut.local = false }()
	return h.step(n)
}

// step runs the spawned actors, judges every operation that finished, and
// then either checks the state (cut == 0) or restarts the host after cut
// scheduling decisions, with whatever is still in flight.
func (h *Host) step(cut int) *Violation {
	if h.violated != nil {
		return h.violated
	}
	h.stats.Steps++
	storeMark, localMark := h.stores.sched.Mark(), h.stores.local.Mark()
	marks := h.recordMarks()
	h.ops.done = h.ops.done[:0]
	if cut > 0 {
		n := 0
		h.rt.OnSwitch(func(from, to, point string) {
			if isReturnPoint(point) {
				h.noteReturnDecision(from, point) // not counted (returns.go)
				return
			}
			if h.cut.cancel {
				h.cancelHook(from, point, &n, cut)
				return
			}
			if h.cut.local && !strings.HasPrefix(point, "local.") {
				return
			}
			// Never while an operation is held after a call returned
			// (returns.go): the crash waits for the next decision.
			if n++; n >= cut && h.returns.heldAfter == 0 {
				h.rt.Stop()
			}
		})
	}
	parked, err := h.rt.Run()
	h.rt.OnSwitch(nil)
	if at := h.rt.StoppedAt(); cut > 0 && at != "" {
		h.noteCut(at)
	}
	if h.cut.cancel {
		cut = 0 // the hook cancelled; the step runs to its end and is checked
		h.endCancelStep()
	}
	h.drainRecords()
	if h.violated != nil {
		return h.violated // store-error, found at a call or in the record
	}
	if err != nil {
		return h.driverFailed("no-panic", fmt.Sprintf("actor failed: %v", err))
	}
	if cut == 0 && len(parked) > 0 {
		return h.failDeadlock(fmt.Sprintf("actors parked forever: %v", parked))
	}
	defer h.endCancels()
	for _, f := range h.ops.done {
		f.storeMark, f.localMark, f.marks = storeMark, localMark, marks
		if v := h.judge(f); v != nil {
			return v
		}
	}
	if err := h.takeAlarmErr(); err != nil {
		return h.failStore("durability", err)
	}
	if esc := h.clock.Escapes(); len(esc) > 0 {
		return h.driverFailed("timer-escape", "the system under test used timers the simulation cannot schedule: "+strings.Join(esc, "; "))
	}
	h.noteAlarm()
	if cut > 0 {
		return h.RestartHost()
	}
	return h.checkState()
}

// RestartHost crashes the host process and starts it again: operations in
// flight are cut, connections drop, in-memory state is gone, and the store
// handles are dropped without Close, as a killed process leaves them. A
// durable store is reopened from what it committed: one that acknowledged
// writes it had only buffered (flushing them at Close) comes back without
// them and is caught.
func (h *Host) RestartHost() *Violation { return h.restartHost(false) }

// ShutdownHost is a clean restart: like RestartHost, but both stores are
// closed before they are reopened (a deploy, not a crash).
func (h *Host) ShutdownHost() *Violation { return h.restartHost(true) }

func (h *Host) restartHost(clean bool) *Violation {
	if h.violated != nil {
		return h.violated
	}
	cut := h.rt.Live()
	h.rt.Kill()
	h.returns.heldAfter = 0 // unwound where they were held
	h.clock.DropTimers()    // the process that set them is gone
	details := []string{"cut=" + strconv.Itoa(len(cut))}
	if h.cut.at != "" && len(cut) > 0 {
		details = append(details, "at="+h.cut.at) // the blocking point the step stopped at
	}
	h.cut.at = ""
	kind := "host-restart"
	if clean {
		details = append(details, "clean=true")
		kind = "host-shutdown"
	}
	h.event("-", "host-restart", details...)
	h.stats.Faults[kind]++
	for _, c := range h.backends.containers {
		c.DropConnections()
	}
	h.drainRecords()
	if h.violated != nil {
		return h.violated
	}
	old := h.stores.store
	_, fileBacked := old.(interface{ Close() error })
	var before []history.LocalBackend
	if fileBacked {
		// A file-backed store is closed or dropped below: read what it
		// holds (what the workspace was told is written) first.
		var err error
		if before, err = localState(old, h.durableNames()); err != nil {
			return h.failStore("durability", err)
		}
	}
	for _, s := range []struct {
		what  string
		store any
	}{{"intent store", h.stores.inner}, {"local store", h.stores.store}} {
		c, ok := s.store.(interface{ Close() error })
		cr, crashes := s.store.(Crasher)
		switch {
		case !clean && crashes:
			cr.Crash() // what the process's death would release (host_crasher.go)
		case !ok:
		case !clean:
			h.stores.dropped = append(h.stores.dropped, c) // closed when the run ends, never before the reopen
		default:
			if err := c.Close(); err != nil {
				return h.failStore("durability", hostStoreError(s.what, "close", "", err))
			}
		}
	}
	if err := h.start(); err != nil {
		var be *buildError
		if errors.As(err, &be) {
			return h.driverFailed("api", be.Error())
		}
		return h.failStore("durability", err)
	}
	if !fileBacked && !sameStore(h.stores.store, old) {
		// An in-memory store replaced at restart: the old one is still
		// readable, and the new one must hold the same.
		var err error
		if before, err = localState(old, h.durableNames()); err != nil {
			return h.failStore("durability", err)
		}
	}
	if before != nil {
		after, err := localState(h.stores.store, h.durableNames())
		if err != nil {
			return h.failStore("durability", err)
		}
		h.appendEvent(history.Event{Kind: history.LocalReopened, Durable: &history.Durable{Before: before, After: after}})
		if h.violated != nil {
			return h.violated
		}
	}
	return h.checkState()
}

// localState reads the durable state of every backend from st (the host's
// own reads: an error is the store's, never injected).
// durableNames are the backends a host restart compares before and after:
// the workspace's, and the store probe's when it wrote there (its upstream
// deletes, mixed-case paths and cursor edge cases are nowhere else).
func (h *Host) durableNames() []string {
	if !h.stores.localProbed {
		return h.backends.names
	}
	return append(slices.Clip(h.backends.names), probeBackend)
}

func localState(st workspace.Store, names []string) ([]history.LocalBackend, error) {
	out := make([]history.LocalBackend, 0, len(names))
	for _, b := range names {
		var l history.LocalBackend
		var err error
		fail := func(op string) error { return hostStoreError("local store", op, b, err) }
		if l.Files, err = st.Files(b); err != nil {
			return nil, fail("files")
		}
		if l.Fetch, err = st.FetchCursor(b); err != nil {
			return nil, fail("fetch-cursor")
		}
		if l.Push, err = st.PushCursor(b); err != nil {
			return nil, fail("push-cursor")
		}
		if l.PushRev, err = st.PushRev(b); err != nil {
			return nil, fail("push-rev")
		}
		if l.Rev, err = st.CurrentRev(b); err != nil {
			return nil, fail("current-rev")
		}
		out = append(out, l)
	}
	return out, nil
}

// Advance moves virtual time forward by d, instant by instant: at each
// instant where timers are due (the Waker's alarm, a timer of the SUT)
// time stops, they fire as actors, and one step runs them (and whatever
// they start) before the advance goes on.
func (h *Host) Advance(d time.Duration) *Violation {
	end := h.clock.Now().Add(d)
	var last time.Time
	rounds := 0
	for h.violated == nil {
		if now := h.clock.Now(); now.After(end) {
			end = now // the steps took time (read latency): the advance is over
		}
		next, ok := h.clock.NextDue()
		if !ok || next.After(end) {
			h.clock.AdvanceTo(end)
			h.event("-", "advance", "to="+h.at(end))
			return nil
		}
		if now := h.clock.Now(); next.Before(now) {
			next = now
		}
		if !next.Equal(last) {
			last, rounds = next, 0
		} else if rounds++; rounds == maxAlarmRounds {
			return h.driverFailed("alarm-progress", "timers fired "+itoa(maxAlarmRounds)+" times at one instant")
		}
		h.alarm.spawned = 0
		h.clock.AdvanceTo(next)
		if h.alarm.spawned == 0 {
			continue
		}
		if v := h.Step(); v != nil {
			return v
		}
	}
	return h.violated
}

// AdvanceTo moves virtual time to t (no-op when t is not in the future).
func (h *Host) AdvanceTo(t time.Time) *Violation {
	if d := t.Sub(h.clock.Now()); d > 0 {
		return h.Advance(d)
	}
	return nil
}

// Crash, Restart, LoseIdentity and Truncate plant the event faults of one
// backend's container.
func (h *Host) Crash(b int) {
	h.backends.containers[b].Crash(1)
	h.backends.wiped[b], h.backends.reconnected[b] = true, true
	h.ledgers.truncs.Replaced(b)
	h.faultEvent(b, "crash")
}

// Restart replaces backend b's container process: a new runtime id, its
// log and unsynced files gone.
func (h *Host) Restart(b int) {
	h.backends.containers[b].Restart()
	h.backends.wiped[b], h.backends.reconnected[b] = true, true
	h.ledgers.truncs.Replaced(b)
	h.faultEvent(b, "restart")
}

// LoseIdentity makes backend b's connection report another runtime id (none:
// no id) while its log stays intact.
func (h *Host) LoseIdentity(b int, none bool) {
	h.backends.containers[b].LoseIdentity(none)
	h.faultEvent(b, "lost-identity", "none="+strconv.FormatBool(none))
}

// Truncate shortens backend b's remote log without a new connection.
func (h *Host) Truncate(b int) {
	h.backends.containers[b].TruncateLog()
	h.backends.wiped[b], h.backends.reconnected[b] = true, false
	h.ledgers.truncs.Truncated(b, h.backends.containers[b].Watermarks().CurrentRev)
	h.faultEvent(b, "truncated-log")
}

// Inject arms one fault on backend b's container (faults.Container.Arm):
// the next call at a.On fails with it. The trace says it was armed; the
// record line of the call it fires at says "fault <kind> armed". An armed
// crash or restart wipes the runtime's log as the ops of the same name do,
// which drainRecords notes when it fires.
func (h *Host) Inject(b int, a faults.Armed) error {
	if err := h.backends.containers[b].Arm(a); err != nil {
		return err
	}
	details := []string{"kind=" + a.Kind.String(), "backend=" + h.backends.names[b], "on=" + string(a.On), "armed"}
	if a.On.Streamed() {
		details = append(details, "after="+strconv.Itoa(a.After))
	}
	h.event("-", "fault", details...)
	return nil
}

func (h *Host) faultEvent(b int, kind string, details ...string) {
	h.stats.Faults[kind]++
	h.event("-", "fault", append([]string{"kind=" + kind, "backend=" + h.backends.names[b]}, details...)...)
}

// hostPrefix is where host-side writes live; the container writes
// elsewhere, so the two never collide.
const hostPrefix = ledger.HostPrefix

// IntentDue returns the NotBefore of backend b's stored intent, if any,
// as the intent store listed it at the last check: nothing has run since
// (no actor, no timer), so the store still holds that table. Before the
// first check, or when a listing fails (the check reports that), it lists
// the store itself.
func (h *Host) IntentDue(b int) (time.Time, bool) {
	intents, ok := h.checkedIntents()
	if !ok {
		var err error
		if intents, err = h.storedIntents(); err != nil {
			return time.Time{}, false
		}
	}
	for _, in := range intents {
		if in.Backend == h.backends.names[b] {
			return in.NotBefore, true
		}
	}
	return time.Time{}, false
}

// drainRecords copies the runtime's and the store's new record entries into
// the trace, container by container: deterministic, since each record is
// in call order and containers are visited in order. The calls stay in
// h.records.drained for judge, which reads the same ranges.
func (h *Host) drainRecords() {
	for i, c := range h.backends.containers {
		h.records.drainedFrom[i] = h.records.marks[i]
		h.records.drained[i] = c.RecordView(h.records.marks[i]) // read-only: may share the record
		h.records.marks[i] += len(h.records.drained[i])
		// The ledger forgets at a new log only: after a lost identity the
		// same log serves the same content, which a pull that applied it
		// and then failed (a local-store fault before the cursor write) has
		// already brought into the local store.
		h.ledgers.served.Note(i, c.LogEpoch(), h.records.drained[i]) // complete-at-target's (the lead's)
		h.ledgers.truncs.Note(i, h.records.drained[i])
		for k, call := range h.records.drained[i] {
			if call.Fault.Valid() {
				h.stats.Faults[call.Fault.String()]++
			}
			if call.Armed && (call.Fault == faults.Crash || call.Fault == faults.Restart) {
				h.backends.wiped[i], h.backends.reconnected[i] = true, true
				h.ledgers.truncs.Replaced(i)
			}
			h.records.lineBuf = call.AppendTrace(h.records.lineBuf[:0])
			h.eventBytes(call.Actor, event.KindRuntime, h.records.lineBuf)
			h.appendEvent(history.Event{Kind: history.RuntimeCall, Actor: call.Actor, Backend: i, Runtime: &h.records.drained[i][k]})
		}
	}
	if h.hist.Reads(history.Drained) {
		epochs := make([]int, len(h.backends.containers))
		for i, c := range h.backends.containers {
			epochs[i] = c.LogEpoch()
		}
		h.appendEvent(history.Event{Kind: history.Drained, Marks: slices.Clone(h.records.marks), Epochs: epochs})
	}
	storeCalls := h.stores.sched.CallsView(h.records.schedMark)
	for k := range storeCalls {
		call := &storeCalls[k]
		if call.Fault.Valid() {
			h.stats.Faults[call.Fault.String()]++
		}
		h.records.lineBuf = call.AppendTrace(h.records.lineBuf[:0], h.appendAt)
		h.eventBytes(call.Actor, event.KindStore, h.records.lineBuf)
		h.appendEvent(history.Event{Kind: history.StoreCall, Actor: call.Actor, Store: call})
	}
	h.records.schedMark = h.stores.sched.Mark()
	h.drainLocalFaults()
}

// recordSince returns container b's calls after mark: from what the last
// drain read when it covers mark (judge runs right after a drain), else a
// fresh copy. The result must not be kept past the next drain.
func (h *Host) recordSince(b, mark int) []faults.Call {
	if from := h.records.drainedFrom[b]; mark >= from && mark-from <= len(h.records.drained[b]) && from+len(h.records.drained[b]) == h.records.marks[b] {
		return h.records.drained[b][mark-from:]
	}
	return h.backends.containers[b].RecordSince(mark)
}

// StaleRuntime is the runtime id a planted stale intent names: no container
// ever reports it.
const StaleRuntime = "stale-runtime"

// Fence is the runtime id a host-written intent names (HostIntent). A host
// may write any of the three: the library fences its own intents on the
// runtime that produced the changes, but SPEC 4 lets a host store intents
// itself, and one that does not know the runtime stores none.
type Fence uint8

const (
	// FenceCurrent names the container's current runtime id, or none
	// when the container reports none.
	FenceCurrent Fence = iota
	// FenceStale names StaleRuntime, a runtime no container reports: the
	// intent's changes belong to a runtime that is gone.
	FenceStale
	// FenceNone names no runtime id whatever the container reports: an
	// intent without a runtime on a backend that may well have one, which a later
	// failure under a known runtime must replace rather than join (SPEC
	// 3.3 step 4 treats only an unidentified caller as "same").
	FenceNone
)

// String is the fence's word in a scenario file's plant op ("" for
// FenceCurrent, which the file leaves unsaid).
func (f Fence) String() string {
	switch f {
	case FenceStale:
		return "stale"
	case FenceNone:
		return "no-runtime"
	}
	return ""
}

// HostIntent is the intent a host writes itself for backend (PlantIntent):
// the runtime id fence names, due at now, with no target when target is 0,
// else the cursor of the remote's target-th fetchable entry (a path inside
// its revision), or {currentRev, null} when the log holds fewer.
func HostIntent(backend string, c *faults.Container, attempt int, fence Fence, target int, now time.Time) scheduler.Intent {
	return HostIntentAfter(backend, c, scheduler.Baseline, attempt, fence, target, now)
}

// HostIntentAfter is HostIntent with the target counted from fetch (the
// backend's fetch cursor, for a target a few entries ahead of what the
// host holds) instead of the baseline.
func HostIntentAfter(backend string, c *faults.Container, fetch scheduler.Cursor, attempt int, fence Fence, target int, now time.Time) scheduler.Intent {
	in := scheduler.Intent{Backend: backend, Attempt: attempt, NotBefore: now}
	if target > 0 {
		cur := c.EntryCursorAfter(fetch, target)
		in.TargetCursor = &cur
	}
	switch fence {
	case FenceCurrent:
		if id, ok := c.RuntimeID(); ok {
			in.RuntimeID = scheduler.Ptr(id)
		}
	case FenceStale:
		in.RuntimeID = scheduler.Ptr(StaleRuntime)
	case FenceNone:
	}
	return in
}

// PlantIntent writes a host-written intent for backend b straight into the
// intent store (no fault wrapper: the host's own write), as a host may: an
// attempt above maxAttempts reaches the pre-check (SPEC 4), an attempt at
// or below it is retried like any other. The model records it as a host
// write, and the attempt-range invariant, which is about library-written
// intents, does not apply to it while it is stored unchanged.
func (h *Host) PlantIntent(b int, attempt int, fence Fence, target int) *Violation {
	return h.plantIntent(b, attempt, fence, scheduler.Baseline, target)
}

// PlantIntentAhead is PlantIntent with the target counted from backend b's
// fetch cursor (as the local store holds it, read by the host under the
// store's read rule: a rev 0 reads as the baseline; property local-store
// holds the store to its model): the ahead-th entry the next fetch would
// serve. An entry budget of n stops a retry exactly on a target n entries
// ahead, where the retry is complete, not progress (SPEC 6.4); a target
// counted from the baseline rarely lies there.
func (h *Host) PlantIntentAhead(b int, attempt int, fence Fence, ahead int) *Violation {
	cur, err := h.stores.store.FetchCursor(h.backends.names[b])
	if err != nil {
		return h.failStore("durability", fmt.Errorf("local store FetchCursor(%s): %w", h.backends.names[b], err))
	}
	if cur.Rev == 0 {
		cur = scheduler.Baseline
	} else if !cur.HasPath {
		cur.Path = ""
	}
	return h.plantIntent(b, attempt, fence, cur, ahead)
}

func (h *Host) plantIntent(b int, attempt int, fence Fence, from scheduler.Cursor, target int) *Violation {
	if h.violated != nil {
		return h.violated
	}
	if h.cfg.NoScheduler {
		return nil // no store to write to
	}
	in := HostIntentAfter(h.backends.names[b], h.backends.containers[b], from, attempt, fence, target, h.clock.Now())
	if err := h.stores.inner.Schedule(h.ctx, in); err != nil {
		return h.failStore("durability", fmt.Errorf("plant %s: %w", in, hostStoreError("intent store", "schedule", in.Backend, err)))
	}
	h.appendEvent(history.Event{Kind: history.IntentPlanted, Intent: &in})
	h.event("-", "plant", "intent="+h.intentText(in))
	return h.checkState()
}

// drawEdits is the edit options (faults' `write ... rewrite= delete=
// twins`) an exec's command adds to its new files, drawn from a stream of
// its own per actor as exitCode is: about one command in three also
// rewrites or deletes files the remote already holds, or writes paths
// that differ only in case, so that pulls carry replacements and deletes
// to the local store, not only new files. Each is one word of the
// command; none for most.
func drawEdits(r *rand.Rand) []string {
	if r.IntN(3) != 0 {
		return nil
	}
	var out []string
	if n := r.IntN(3); n > 0 {
		out = append(out, "rewrite="+strconv.Itoa(n))
	}
	if n := r.IntN(3); n > 0 {
		out = append(out, "delete="+strconv.Itoa(n))
	}
	if len(out) == 0 || r.IntN(3) == 0 {
		out = append(out, "twins")
	}
	return out
}

// exitCode is the status an exec's command ends with, drawn from a stream
// of its own per actor (key: its Run and local name, so it moves no other
// draw and no other operation moves it): mostly 0, sometimes
// any other code, so that an exec reporting the wrong one is caught
// (property exit-code).
func exitCode(r *rand.Rand) int {
	if r.IntN(4) != 0 {
		return 0
	}
	return 1 + r.IntN(255)
}

// sameStore reports whether the factory handed back the very store it had
// before the restart. A plugged-in store may be a value whose type cannot
// be compared (a struct holding a map): == on it panics, which was once a
// no-panic violation blamed on a correct store. Such a store counts as
// replaced, and the host reads the old one too: a listing more, and right
// either way.
func sameStore(a, b workspace.Store) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}
