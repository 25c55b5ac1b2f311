package sim

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/oracle"
	"github.com/syncsim/syncsim/workspace"
)

// Violation is a broken property: which one, and what was seen.
type Violation struct {
	Property string
	Detail   string
	// At is the virtual time since the run's start.
	At time.Duration
	// Stacks holds the goroutine stacks of a hang or a deadlock, for a
	// human: never part of the trace (addresses differ between runs).
	Stacks string
}

// Error renders the violation on one line: the property, the virtual
// time, the detail.
func (v *Violation) Error() string {
	return fmt.Sprintf("property %s violated at +%s: %s", v.Property, v.At, v.Detail)
}

// Properties lists every property a run judges, by name, in the
// registry's order (oracle.Registry holds what each checks and where).
var Properties = oracle.Names()

// fail breaks property with detail: the run's first violation is kept and
// traced. A registered property the run does not judge (Config.Properties)
// is not reported: fail returns nil and the run goes on. A user's
// checker's property is always reported.
func (h *Host) fail(property, detail string) *Violation {
	if h.violated != nil {
		return h.violated
	}
	if h.judged != nil && !h.judged(property) && oracle.Lookup(property) != nil {
		return nil
	}
	// A detail may quote an error the injector planted a credential in.
	detail = faults.ScrubSecrets(detail)
	h.violated = &Violation{Property: property, Detail: detail, At: h.clock.Now().Sub(h.t0)}
	h.event("-", "violation", "property="+property, "detail="+oneWord(firstLine(detail)))
	return h.violated
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// checkState compares the durable intent table with the model and checks
// the invariants that hold between steps.
func (h *Host) checkState() *Violation {
	h.listed.reset()
	intents, err := h.storedIntents()
	if err != nil {
		return h.failStore("durability", err)
	}
	if v := h.storedSecrecy(intents); v != nil {
		return v
	}
	if v := h.checkAckedWrites(); v != nil {
		return v
	}
	if v := h.checkLocalViews(); v != nil {
		return v
	}
	if v := h.stepEnd(intents); v != nil {
		return v
	}
	if v := h.traceSecrecy(); v != nil {
		return v
	}
	if h.checkRearmed("at the check, before the host re-armed", intents); h.violated != nil {
		return h.violated
	}
	if err := h.rearm(); err != nil {
		return h.failStore("durability", err)
	}
	// The alarm must never be later than the earliest live intent that was
	// not handed over and left unchanged. The bound is re-derived here from
	// the stored table, which property intent-table has just held to the
	// model's, and from the hand-overs the host made (never from the host's
	// own settled set: a host rule that settles an intent it did not hand
	// over, as the planted time-based one does, is caught at the step that
	// strands the intent rather than at the end of the run).
	if d := h.alarmMismatch(intents, h.alarm, h.alarmSet); d != "" {
		return h.fail("alarm", d)
	}
	return nil
}

// alarmMismatch holds an alarm (at, set) to the one-alarm rule over
// bound, the intents it must serve: never later than the earliest live
// intent the judge has not settled (after a rejected firing, not before
// the retry delay ends), and never earlier — an alarm set with nothing
// pending, or before the earliest pending intent is due, fires for
// nothing; the Waker's settle and retry delay exist so that an exhausted
// intent or a failing store does not turn the alarm into a loop. A store
// that owns its alarm (AlarmOwner) sets it by its own rule, so only
// lateness is held against it. It returns "" when the alarm is right.
func (h *Host) alarmMismatch(bound []scheduler.Intent, at time.Time, set bool) string {
	if d := h.alarmLate(bound, at, set); d != "" {
		return d
	}
	earliest, pending := h.alarmBound(bound)
	if h.owner == nil && set && (!pending || at.Before(earliest)) {
		want := "unset (nothing pending)"
		if pending {
			want = h.at(earliest)
		}
		return fmt.Sprintf("expected the alarm at %s, got %s: earlier than anything pending", want, h.at(at))
	}
	return ""
}

// alarmLate is alarmMismatch's first half: the alarm (at, set) is never
// later than an intent of bound that is live and not settled by the judge
// (after a rejected firing, not before the retry delay ends). "" when it
// is not late.
func (h *Host) alarmLate(bound []scheduler.Intent, at time.Time, set bool) string {
	for _, in := range bound {
		due, ok := h.alarmDue(in)
		if ok && (!set || at.After(due)) {
			alarm := "unset"
			if set {
				alarm = h.at(at)
			}
			return fmt.Sprintf("expected the alarm at or before %s (intent %s's notBefore), got %s", h.at(in.NotBefore), in.Backend, alarm)
		}
	}
	return ""
}

// alarmBound is the earliest time an intent of bound needs the alarm, and
// whether any does (alarmDue).
func (h *Host) alarmBound(bound []scheduler.Intent) (earliest time.Time, pending bool) {
	for _, in := range bound {
		if due, ok := h.alarmDue(in); ok && (!pending || due.Before(earliest)) {
			earliest, pending = due, true
		}
	}
	return earliest, pending
}

// alarmDue is when intent in needs the alarm by the judge: its NotBefore,
// not before the retry delay after a rejected firing ends; ok is false for
// an exhausted intent or one the judge settled.
func (h *Host) alarmDue(in scheduler.Intent) (due time.Time, ok bool) {
	if in.Attempt > h.opts.MaxAttempts || h.oracleSettled.Has(in) {
		return time.Time{}, false
	}
	due = in.NotBefore
	if due.Before(h.oracleRetryAt) {
		due = h.oracleRetryAt
	}
	return due, true
}

// maxTailRounds bounds the liveness tail's alarm firings.
const maxTailRounds = 256

// Liveness runs the fault-free tail: faults off, time advanced through
// every alarm until none is set, then a push and a pull of every backend.
// Afterwards every intent left must be visibly exhausted, and every backend
// whose runtime kept its log must hold the same files locally and remotely.
func (h *Host) Liveness() *Violation {
	if h.violated != nil {
		return h.violated
	}
	h.event("-", "liveness", "faults=off")
	h.oracle.Acked.Force() // every acknowledged write is checked before the tail
	if v := h.checkAckedWrites(); v != nil {
		return v
	}
	for _, c := range h.containers {
		c.SetFaults(false)
	}
	h.sched.SetFaults(false)
	h.local.SetFaults(false)
	if h.latency != nil {
		h.latency.on = false
	}
	for round := 0; h.alarmSet; round++ {
		if round == maxTailRounds {
			return h.fail("liveness-intents", fmt.Sprintf("alarm still set after %d firings", maxTailRounds))
		}
		if v := h.Advance(max(h.alarm.Sub(h.clock.Now()), 0)); v != nil {
			return v
		}
	}
	if v := h.Advance(h.opts.MaxDelay); v != nil {
		return v
	}
	left, err := h.storedIntents()
	if err != nil {
		return h.failStore("durability", err)
	}
	for _, in := range left {
		if in.Attempt < h.opts.MaxAttempts {
			return h.fail("liveness-intents", fmt.Sprintf("intent %s: expected exhausted or an alarm to retry it, got neither (stranded)", h.intentText(in)))
		}
	}
	h.drainRecords()
	tailFrom := append([]int(nil), h.marks...)
	tailPushed := make([]int, len(h.containers))
	tailNames := make([]string, len(h.containers))
	firstPulls := make([]tailPull, len(h.containers))
	for i := range h.containers {
		name := h.actorName("tail", i)
		tailNames[i] = name
		b := h.names[i]
		ws := h.ws
		h.rt.Go(name, func() {
			presizeStack()
			// The first pull reconnects (and reconciles) a backend whose
			// connection died with its container; a crashed container may
			// refuse it, so only the push and pull after it must succeed:
			// the push re-baselines host writes, the pull brings the rest.
			_, err := ws.Pull(h.ctx, b)
			firstPulls[i] = tailPull{err: err, upTo: h.containers[i].Mark()}
			n, err := ws.Push(h.ctx, b)
			if err != nil {
				h.fail("liveness-files", fmt.Sprintf("tail push %s: %v", b, err))
				return
			}
			tailPushed[i] = n
			if _, err := ws.Pull(h.ctx, b); err != nil {
				h.fail("liveness-files", fmt.Sprintf("tail pull %s: %v", b, err))
			}
		})
	}
	if parked, err := h.rt.Run(); err != nil || len(parked) > 0 {
		return h.failDeadlock(fmt.Sprintf("tail: %v parked %v", err, parked))
	}
	h.drainRecords()
	if h.violated != nil {
		return h.violated
	}
	if v := h.judgeTailPulls(tailNames, tailFrom, firstPulls); v != nil {
		return v
	}
	for i, c := range h.containers {
		// push-count: Workspace.Push returns the changes the runtime
		// acknowledged to it (SPEC 5.1), read from the runtime's record.
		if want := expectedPushCount(c.RecordView(tailFrom[i]), tailNames[i]); tailPushed[i] != want {
			return h.fail("push-count", fmt.Sprintf("tail push %s: expected %d (the changes the runtime acknowledged), got %d", h.names[i], want, tailPushed[i]))
		}
	}
	h.listed.reset() // the tail moved the stores on since the last check
	for i, c := range h.containers {
		local, err := h.localFiles(i)
		if err != nil {
			return h.failStore("liveness-files", hostStoreError("local store", "files", h.names[i], err))
		}
		remote := c.Files()
		if h.syncNone(i) {
			if v := h.checkSyncless(h.names[i], local, remote); v != nil {
				return v
			}
			continue
		}
		if h.wiped[i] && !h.oracle.Truncs.IsBlind(i) {
			if v := h.checkConverged(h.names[i], local, remote); v != nil {
				return v
			}
		}
		if h.wiped[i] && !h.reconnected[i] {
			continue
		}
		if h.wiped[i] {
			// The runtime lost its log: what it made is gone for good, but
			// the host must have re-baselined its own writes onto the new
			// one (reconcile resets the push cursor, SPEC 8.3).
			if d := diffFiles(hostWritten(local), hostWritten(remote)); d != "" {
				return h.fail("liveness-push", fmt.Sprintf("backend %s: host-side files not re-pushed after the remote lost its log (-local +remote):\n%s", h.names[i], d))
			}
			continue
		}
		if d := diffFiles(local, remote); d != "" {
			return h.fail("liveness-files", fmt.Sprintf("backend %s: local files differ from remote (-local +remote):\n%s", h.names[i], d))
		}
	}
	h.event("-", "liveness", "ok")
	return h.traceSecrecy()
}

// checkSyncless is liveness-files for a backend whose handles do not sync
// (SPEC 4, sync "none"): nothing ever travels, so after the tail the local
// store holds only the host's own writes and the remote none of them.
func (h *Host) checkSyncless(name string, local, remote []workspace.File) *Violation {
	for _, f := range local {
		if !strings.HasPrefix(f.Path, hostPrefix) {
			return h.fail("liveness-files", fmt.Sprintf("backend %s does not sync (SPEC 4, sync \"none\"), yet its local store holds the remote's %s", name, f.Path))
		}
	}
	for _, f := range remote {
		if strings.HasPrefix(f.Path, hostPrefix) {
			return h.fail("liveness-files", fmt.Sprintf("backend %s does not sync (SPEC 4, sync \"none\"), yet its remote holds the host's %s", name, f.Path))
		}
	}
	return nil
}

// syncNone reports whether backend b's handles do not sync (Config.SyncNone).
func (h *Host) syncNone(b int) bool { return h.cfg.SyncNone != "" && BackendLabel(b) == h.cfg.SyncNone }

// checkConverged is liveness-converge: after the fault-free tail, even a
// backend whose log was truncated or replaced has every file its remote
// holds now, container-side, with the remote's content — the divergence
// reset and reconcile (SPEC 6.3, 6.4, 6.6) must have brought the new log
// in. Files the old log made may linger locally (a deletion lost with the
// log is never replayed), and host-side files are liveness-push's.
func (h *Host) checkConverged(name string, local, remote []workspace.File) *Violation {
	have := oracle.IndexFiles(local)
	for _, f := range remote {
		if strings.HasPrefix(f.Path, hostPrefix) {
			continue
		}
		got, ok := have.Get(f.Path)
		if !ok || !bytes.Equal(got, f.Content) {
			return h.fail("liveness-converge", fmt.Sprintf("backend %s: after its log was lost and the fault-free tail, remote %s (rev %d) = %q is not in the local store (local has %q, present %t)",
				name, f.Path, f.Rev, f.Content, got, ok))
		}
	}
	return nil
}

func diffFiles(local, remote []workspace.File) string {
	// The usual case compares in place: the views copy every content, a
	// few megabytes for a run with big files, only to describe a
	// difference.
	if slices.EqualFunc(local, remote, func(a, b workspace.File) bool {
		return a.Path == b.Path && bytes.Equal(a.Content, b.Content)
	}) {
		return ""
	}
	return cmp.Diff(viewFiles(local), viewFiles(remote))
}

// fileView is what the liveness property compares of a file: its path and
// content (revisions differ between the two sides by design).
type fileView struct {
	Path    string
	Content string
}

func viewFiles(fs []workspace.File) []fileView {
	out := make([]fileView, len(fs))
	for i, f := range fs {
		out[i] = fileView{Path: f.Path, Content: string(f.Content)}
	}
	return out
}

// hostPrefix is where host-side writes live (SpawnWrite); the container
// writes elsewhere, so the two never collide.
const hostPrefix = "/host/"

func hostWritten(fs []workspace.File) []workspace.File {
	var out []workspace.File
	for _, f := range fs {
		if strings.HasPrefix(f.Path, hostPrefix) {
			out = append(out, f)
		}
	}
	return out
}
