package faults

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// Container is a simulated container runtime for one backend. It
// implements workspace.Backend: Connect returns handles whose SyncRPC
// serves the remote side of SPEC 6.2 from the container's own store, and
// whose Exec runs commands of a small text grammar (see Exec in doc.go).
//
// Scenario operations (Crash, Restart, LoseIdentity, TruncateLog,
// DropConnections, SetFaults) are called by the simulator's driver outside
// any actor; they never call Hooks.Block. Every method is safe for
// concurrent use; no lock is held while Hooks.Block runs.
type Container struct {
	backend string
	hooks   Hooks
	rets    ReturnHooks // hooks' Return side, nil when it has none
	rng     *rand.Rand
	profile *Profile
	secrets *Secrets // nil: injected errors carry no credential
	// lostCode draws which fetch failures carry EEXEC_LOST (lostcode.go);
	// nil: none.
	lostCode *rand.Rand
	now      func() time.Time // optional: stamps each recorded call (SetClock)

	mu       sync.Mutex
	faultsOn bool

	// Process and identity.
	rtSeq        int    // runtime ids minted so far
	process      string // id minted for the running process
	reported     string // id new connections report
	reportedOK   bool   // false after LoseIdentity(none=true)
	anonymous    bool   // no process ever reports a runtime id (SetAnonymous)
	syncNone     bool   // handles have no sync surface (SetSyncNone)
	crashed      bool
	failConnects int // connects still refused while crashed
	epoch        int // restarts, crashes, lost identities, truncations
	wipes        int // times the log was emptied, the first launch included

	// Remote store (process-lifetime, SPEC 7).
	files map[string]*remoteFile
	// paths holds the keys of files in order as of the last Files call,
	// newPaths the keys added since (a key stays until the next wipe), so
	// that a listing merges a few new paths instead of sorting them all.
	paths, newPaths []string
	// editable holds the paths a command may edit (editTargetsLocked):
	// live and not the host's push, kept by setFileLocked.
	editable    rankSet
	currentRev  int64
	fetchCursor scheduler.Cursor // appliedPushCursor: our pushes, host rev space
	index       fetchIndex       // fetchable states in cursor order (stream.go)

	// Connections, streams and commands.
	conns   []*conn
	streams int // change and event streams opened
	execSeq int
	execs   []Execution
	// execsBy indexes execs by actor, so a judge asking what one exec ran
	// does not copy every command of a long run.
	execsBy map[string][]int
	writes  int

	// armed holds the faults Arm queued, not yet fired (arm.go).
	armed []Armed
	// staged holds `stage` writes the pre-fetch hook has not taken in
	// (exec.go); the process owns them, so a restart or truncation drops
	// them with the store.
	staged []stagedWrite

	record callLog       // record.go
	points map[Op]string // blocking points by op (points.go)
}

// remoteFile is the latest state of one remote path: a live file or a
// tombstone, the rev that last touched it and whether that touch was a push
// from the host.
type remoteFile struct {
	content []byte
	deleted bool
	rev     int64
	pushed  bool
}

// Execution is one command that actually ran in the container.
type Execution struct {
	Seq       int // container-wide command sequence, from 1
	Actor     string
	Conn      int
	RuntimeID string // the id its connection reports ("" for none)
	Process   string // the id minted for the process it ran in
	Command   string
	ExitCode  int
	Writes    int // container-side writes and deletes it made
}

var _ workspace.Backend = (*Container)(nil)

// NewContainer returns a running container for backend whose first process
// is "<backend>-rt1". Per-call faults are drawn from rng (which the
// container owns from now on) using *profile, read at each call, so the
// caller may change it; a nil profile means Off. Faults start on.
func NewContainer(backend string, hooks Hooks, rng *rand.Rand, profile *Profile) *Container {
	if hooks == nil {
		hooks = NoHooks{}
	}
	c := &Container{backend: backend, hooks: hooks, rets: returnsOf(hooks), rng: rng, profile: profile, faultsOn: true, points: containerPoints(backend)}
	c.launchLocked()
	return c
}

// launchLocked starts a new process: a new runtime id and an empty store
// (currentRev 1, appliedPushCursor {0,null}; SPEC 6.1, 7).
func (c *Container) launchLocked() {
	c.process = c.mintLocked()
	c.reported, c.reportedOK = c.process, !c.anonymous
	if c.anonymous {
		c.reported = ""
	}
	c.crashed, c.failConnects = false, 0
	c.wipeLocked()
}

func (c *Container) mintLocked() string {
	c.rtSeq++
	return fmt.Sprintf("%s-rt%d", c.backend, c.rtSeq)
}

func (c *Container) wipeLocked() {
	c.wipes++
	c.staged = nil
	c.files = make(map[string]*remoteFile)
	c.paths, c.newPaths = nil, nil
	c.editable.Reset()
	c.index = fetchIndex{}
	c.currentRev = 1
	c.fetchCursor = scheduler.Baseline
}

// breakConnsLocked kills every open connection: later calls on them fail
// with an InjectedError of kind k.
func (c *Container) breakConnsLocked(k Kind, msg string) {
	for _, cn := range c.conns {
		if cn.broken == nil {
			cn.broken = c.secrets.broken(k, msg)
		}
	}
}

// draw reports whether a per-call fault of kind k fires now. Draws come
// from this container's rng only, in call order, and only while faults are
// on and k is on.
func (c *Container) drawLocked(k Kind) bool {
	return c.faultsOn && c.profile.draw(c.rng, k)
}

// PlantSecrets makes every error the container injects from now on carry a
// fake credential from s (see Secrets); nil stops it.
func (c *Container) PlantSecrets(s *Secrets) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.secrets = s
}

// Crash kills the process: every open connection breaks, and calls on them
// fail with "injected crash: container exited". The next failConnects
// Connect calls are refused ("injected crash: connection refused: container
// exited"); the one after relaunches the container, exactly as Restart
// does (new runtime id, empty store), and succeeds. This follows SPEC 7:
// the container host's start() relaunches a dead container, and a
// relaunched process is a new runtime. Restart brings a crashed container
// back at once. A Crash on a crashed container resets the count.
func (c *Container) Crash(failConnects int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.crashLocked(failConnects)
}

func (c *Container) crashLocked(failConnects int) {
	c.crashed = true
	c.failConnects = max(failConnects, 0)
	c.epoch++
	c.breakConnsLocked(Crash, msgCrashed)
}

// Restart replaces the process (SPEC 8.3): a new runtime id, the remote
// log truncated (currentRev back to 1, files and the appliedPushCursor
// wiped, unsynced container-side changes gone), and every open connection
// broken ("injected restart: websocket closed: …").
func (c *Container) Restart() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.restartLocked()
}

func (c *Container) restartLocked() {
	c.epoch++
	c.breakConnsLocked(Restart, msgRestarted)
	c.launchLocked()
}

// LoseIdentity makes connections opened from now on report a newly minted
// runtime id, or none when none is true, while the process and its log stay
// intact. Open connections keep working and keep reporting the id they
// were opened with: a runtime id is learnt at connect time (SPEC 7: one
// connect() may return a different runtimeId than start() reported), and
// a live WebSocket does not re-learn it. The workspace notices only when it
// reconnects, through the runtime fence (EEXEC_LOST).
func (c *Container) LoseIdentity(none bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.loseIdentityLocked(none)
}

func (c *Container) loseIdentityLocked(none bool) {
	c.epoch++
	if none || c.anonymous {
		c.reported, c.reportedOK = "", false
		return
	}
	c.reported, c.reportedOK = c.mintLocked(), true
}

// TruncateLog models a computerd restart under a surviving WebSocket (SPEC
// 8.5): same runtime id, open connections keep working, but the store is
// wiped (currentRev back to 1, files and appliedPushCursor gone), so the
// remote log is shorter than what the host has seen.
func (c *Container) TruncateLog() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	c.wipeLocked()
}

// DropConnections breaks every open connection without touching the
// process, as when the host restarts and its WebSockets go away. Calls on
// them fail with "injected host-restart: rpc session was shut down".
func (c *Container) DropConnections() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.breakConnsLocked(HostRestart, msgBroken)
}

// SetFaults turns per-call fault draws on or off; the fault-free liveness
// tail of a scenario turns them off. Event faults are scenario operations
// and are not affected; nor is a crash already in progress.
func (c *Container) SetFaults(on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.faultsOn = on
}

// SetClock makes every recorded call carry the time it was recorded
// (Call.At). Call it before the first call; now must not block (the
// simulator passes its virtual clock's Now, not a reading it reports to a
// schedule).
func (c *Container) SetClock(now func() time.Time) { c.now = now }

// SetAnonymous makes the container a backend without runtime identity
// (SPEC 1.2, 3.3: an intent's runtimeId is optional, absent when the handle
// reports none): its connections report no runtime id, now and after every
// relaunch, restart or lost identity, so every intent the workspace stores
// for it is unfenced and never becomes lost by the fence (SPEC 7). Call it
// before the first connect.
func (c *Container) SetAnonymous() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.anonymous = true
	c.reported, c.reportedOK = "", false
}

// SetSyncNone makes the container a backend whose handles do not sync
// (SPEC 4, handle.sync == "none"): SyncMode reports SyncNone and Sync
// returns nil, so the workspace must never push, fetch, reconcile or
// capture a target through it. Its commands still run and write files on
// the remote, which the host never receives. Call it before the first
// connect.
func (c *Container) SetSyncNone() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.syncNone = true
}

// SyncNone reports whether SetSyncNone was called.
func (c *Container) SyncNone() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.syncNone
}

// RuntimeID is the id a connection opened now would report; ok is false
// after LoseIdentity(true) and for an anonymous container.
func (c *Container) RuntimeID() (id string, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reported, c.reportedOK
}

// alive reports whether the process is running (false between Crash and
// the relaunch).
func (c *Container) alive() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.crashed
}

// LogEpoch counts the times the remote log was emptied since creation (a
// restart, a truncation, the relaunch after a crash): cursors it served
// before may name new content after. A lost identity keeps the log.
func (c *Container) LogEpoch() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wipes - 1
}

// epochCount counts the crashes, restarts, lost identities and log truncations
// since creation.
func (c *Container) epochCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.epoch
}

// Survived reports whether the runtime the container started with is still
// the one behind it with its whole log: no crash, restart, lost identity or
// truncation since creation. The liveness property holds such backends to
// local files equal to remote files.
func (c *Container) Survived() bool { return c.epochCount() == 0 }

// EntryCursor returns the cursor of the k-th entry (from 1), in cursor
// order, that a fetch from the baseline would serve now, or the log's
// {currentRev, null} when it holds fewer. A host that writes an intent
// itself may target any point of the remote's log, a path inside a
// revision included.
func (c *Container) EntryCursor(k int) scheduler.Cursor {
	return c.EntryCursorAfter(scheduler.Baseline, k)
}

// EntryCursorAfter is EntryCursor counting from after instead of the
// baseline: the k-th entry a fetch from after would serve now. A host that
// targets a few entries past its own fetch cursor writes the target a
// retry's entry budget may stop exactly on.
func (c *Container) EntryCursorAfter(after scheduler.Cursor, k int) scheduler.Cursor {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.index.entries {
		if !after.Less(e) || !c.liveLocked(e) {
			continue
		}
		if k--; k == 0 {
			return e
		}
	}
	return scheduler.At(c.currentRev)
}

// Files returns the remote's live files (tombstones left out), sorted by
// path, each with the rev that last changed it. Contents are shared with
// the container, not copied (the harness lists every file after many
// steps): read them, never write them. The container itself never writes
// a content in place; a write gives the path a new one.
func (c *Container) Files() []workspace.File {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]workspace.File, 0, len(c.paths))
	for _, p := range c.sortedPathsLocked() {
		if f := c.files[p]; !f.deleted {
			out = append(out, workspace.File{Path: p, Content: f.content, Rev: f.rev})
		}
	}
	return out
}

// sortedPathsLocked returns every path the remote has a state for
// (tombstones included), sorted: the paths added since the last call are
// merged into the kept sorted list, so a listing never sorts them all.
func (c *Container) sortedPathsLocked() []string {
	if len(c.newPaths) > 0 {
		slices.Sort(c.newPaths)
		merged := make([]string, 0, len(c.paths)+len(c.newPaths))
		i, j := 0, 0
		for i < len(c.paths) || j < len(c.newPaths) {
			if j == len(c.newPaths) || i < len(c.paths) && c.paths[i] < c.newPaths[j] {
				merged = append(merged, c.paths[i])
				i++
			} else {
				merged = append(merged, c.newPaths[j])
				j++
			}
		}
		c.paths, c.newPaths = merged, c.newPaths[:0]
	}
	return c.paths
}

// Tombstones returns, in path order, the cursor {rev, path} of every path
// a command deleted on the remote and nothing has written since (deletes
// the host pushed are left out: they are the host's own). Like Files it is
// for the simulator's checks: no Block, no fault, no record.
func (c *Container) Tombstones() []scheduler.Cursor {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []scheduler.Cursor
	for _, p := range c.sortedPathsLocked() {
		if f := c.files[p]; f.deleted && !f.pushed {
			out = append(out, scheduler.AtPath(f.rev, p))
		}
	}
	return out
}

// Watermarks reads the remote's watermarks directly: no Block, no fault,
// no record. It is for the simulator's checks, not for the workspace.
func (c *Container) Watermarks() workspace.Watermarks {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.watermarksLocked()
}

func (c *Container) watermarksLocked() workspace.Watermarks {
	// PushRev is how far the remote has pushed to an upstream of its own;
	// computerd has none, and reconcile ignores it (SPEC 6.6).
	return workspace.Watermarks{CurrentRev: c.currentRev, FetchCursor: c.fetchCursor}
}

// writeCount counts the container-side writes and deletes commands have made.
func (c *Container) writeCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writes
}

// allExecs returns every command that actually ran, in order.
func (c *Container) allExecs() []Execution {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.execs)
}

// ExecsOf returns the commands actor ran, in order: every command filtered by
// actor, at a cost that does not grow with the run.
func (c *Container) ExecsOf(actor string) []Execution {
	c.mu.Lock()
	defer c.mu.Unlock()
	idx := c.execsBy[actor]
	out := make([]Execution, len(idx))
	for i, j := range idx {
		out[i] = c.execs[j]
	}
	return out
}

// execCount counts the commands that ran in process runtimeID.
func (c *Container) execCount(runtimeID string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, e := range c.execs {
		if e.Process == runtimeID {
			n++
		}
	}
	return n
}

// String describes the container's state on one line for traces.
func (c *Container) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "container %s process %s reports ", c.backend, c.process)
	if c.reportedOK {
		b.WriteString(c.reported)
	} else {
		b.WriteString("none")
	}
	fmt.Fprintf(&b, " alive %t epoch %d currentRev %d appliedPush %s", !c.crashed, c.epoch, c.currentRev, c.fetchCursor)
	return b.String()
}
