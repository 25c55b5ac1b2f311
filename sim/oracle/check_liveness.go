package oracle

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/sim/ledger"
	"github.com/syncsim/syncsim/workspace"
)

// LivenessChecker judges the fault-free tail (DESIGN.md, "Liveness"): with
// faults off, every alarm run out and the longest delay waited, no intent
// is stranded (liveness-intents); after a push and a pull of every
// backend, every backend whose runtime kept its log holds the remote's
// files locally (liveness-files), one whose log was lost has its host
// writes re-pushed (liveness-push) and every remote file (liveness-
// converge), and a backend that does not sync holds only its own.
type LivenessChecker struct {
	want  func(string) bool
	setup history.Setup
}

// Reads: the tail's start and end, its operations' returns, and the
// host's own reads that failed there.
func (c *LivenessChecker) Reads() history.Kinds {
	return history.Of(history.TailBegan, history.OpReturned, history.TailEnded, history.DriverFailed)
}

// Begin starts a run.
func (c *LivenessChecker) Begin(s history.Setup, _ history.Records) { c.setup = s }

// Observe judges the tail.
func (c *LivenessChecker) Observe(e *history.Event, rep history.Reporter) {
	property, detail := "", ""
	switch e.Kind {
	case history.DriverFailed:
		if p := e.Driver.Property; p == "liveness-intents" || p == "liveness-files" || p == "liveness-push" || p == "liveness-converge" {
			property, detail = p, e.Driver.Detail // the host could not read its store at the tail's end
		}
	case history.TailBegan:
		property, detail = c.stranded(e)
	case history.OpReturned:
		property, detail = c.tailOp(e)
	case history.TailEnded:
		for i, b := range e.Tail.Backends {
			if property, detail = c.converged(c.setup.Backends[i], i, b); property != "" {
				break
			}
		}
	}
	if property != "" && (c.want == nil || c.want(property)) {
		rep.Violate(property, detail)
	}
}

// stranded is liveness-intents: every intent left after the alarms ran out
// is exhausted.
func (c *LivenessChecker) stranded(e *history.Event) (string, string) {
	if e.Tail.AlarmStuck {
		return "liveness-intents", fmt.Sprintf("alarm still set after %d firings", e.Tail.Rounds)
	}
	for _, in := range e.Intents {
		if in.Attempt < c.setup.Retry.MaxAttempts {
			return "liveness-intents", fmt.Sprintf("intent %s: expected exhausted or an alarm to retry it, got neither (stranded)", intentText(in, c.setup.T0))
		}
	}
	return "", ""
}

// tailOp: with faults off the tail's push and its second pull of every
// backend succeed (liveness-files). Its first pull may fail (a crashed
// container may still refuse the connect): that one is the model
// family's ("tail-pull").
func (c *LivenessChecker) tailOp(e *history.Event) (string, string) {
	op := e.Op
	if op.Err == nil {
		return "", ""
	}
	switch op.Kind {
	case "tail-push":
		return "liveness-files", fmt.Sprintf("tail push %s: %v", c.setup.Backends[e.Backend], op.Err)
	case "tail-sync":
		return "liveness-files", fmt.Sprintf("tail pull %s: %v", c.setup.Backends[e.Backend], op.Err)
	}
	return "", ""
}

// converged judges one backend's files at the tail's end.
func (c *LivenessChecker) converged(name string, i int, b history.TailBackend) (string, string) {
	if c.setup.SyncNone == i {
		return syncless(name, b.Local, b.Remote)
	}
	if b.LogLost && !b.Blind {
		if p, d := convergedAfterLoss(name, b.Local, b.Remote); p != "" {
			return p, d
		}
	}
	if b.LogLost && !b.Reconnected {
		return "", ""
	}
	if b.LogLost {
		// The runtime lost its log: what it made is gone for good, but
		// the host must have re-baselined its own writes onto the new
		// one (reconcile resets the push cursor, SPEC 8.3).
		if d := diffFiles(HostWritten(b.Local), HostWritten(b.Remote)); d != "" {
			return "liveness-push", fmt.Sprintf("backend %s: host-side files not re-pushed after the remote lost its log (-local +remote):\n%s", name, d)
		}
		return "", ""
	}
	if d := diffFiles(b.Local, b.Remote); d != "" {
		return "liveness-files", fmt.Sprintf("backend %s: local files differ from remote (-local +remote):\n%s", name, d)
	}
	return "", ""
}

// syncless is liveness-files for a backend whose handles do not sync
// (SPEC 4, sync "none"): nothing ever travels, so after the tail the local
// store holds only the host's own writes and the remote none of them.
func syncless(name string, local, remote []workspace.File) (string, string) {
	for _, f := range local {
		if !strings.HasPrefix(f.Path, ledger.HostPrefix) {
			return "liveness-files", fmt.Sprintf("backend %s does not sync (SPEC 4, sync \"none\"), yet its local store holds the remote's %s", name, f.Path)
		}
	}
	for _, f := range remote {
		if strings.HasPrefix(f.Path, ledger.HostPrefix) {
			return "liveness-files", fmt.Sprintf("backend %s does not sync (SPEC 4, sync \"none\"), yet its remote holds the host's %s", name, f.Path)
		}
	}
	return "", ""
}

// convergedAfterLoss is liveness-converge: after the fault-free tail, even
// a backend whose log was truncated or replaced has every file its remote
// holds now, container-side, with the remote's content — the divergence
// reset and reconcile (SPEC 6.3, 6.4, 6.6) must have brought the new log
// in. Files the old log made may linger locally (a deletion lost with the
// log is never replayed), and host-side files are liveness-push's.
func convergedAfterLoss(name string, local, remote []workspace.File) (string, string) {
	have := IndexFiles(local)
	for _, f := range remote {
		if strings.HasPrefix(f.Path, ledger.HostPrefix) {
			continue
		}
		got, ok := have.Get(f.Path)
		if !ok || !bytes.Equal(got, f.Content) {
			return "liveness-converge", fmt.Sprintf("backend %s: after its log was lost and the fault-free tail, remote %s (rev %d) = %q is not in the local store (local has %q, present %t)",
				name, f.Path, f.Rev, f.Content, got, ok)
		}
	}
	return "", ""
}

// diffFiles is "" when local and remote hold the same paths with the same
// contents, and a diff of the two otherwise.
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

// HostWritten returns the host-side files of fs, in order.
func HostWritten(fs []workspace.File) []workspace.File {
	var out []workspace.File
	for _, f := range fs {
		if strings.HasPrefix(f.Path, ledger.HostPrefix) {
			out = append(out, f)
		}
	}
	return out
}
