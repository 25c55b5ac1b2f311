package sim

import (
	"slices"

	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// localStoreCheck is the workspace's local store as the host hands it over:
// every call goes to the fault wrapper (its blocking point before the call,
// its faults), and this check adds no record of its own, so the trace is
// that of the wrapped store. An error the harness did not inject breaks
// store-error at the call (Host.localStoreFailed). The blocking point after
// the call is this check's (localReturned), once it has seen the call: it
// must see each call before another actor runs and makes one of its own.
// The host itself keeps the bare store, to close it at a restart and to
// read what it holds.
//
// Every call that reached the store is appended to the history as it
// returns (a LocalCall event: its arguments and the store's answer), where
// property local-store replays it on the store's model
// (oracle.LocalStoreChecker); the contents the store handed out are
// watched for a change in place (host_localwatch.go).
type localStoreCheck struct {
	inner workspace.Store
	h     *Host
}

var _ workspace.Store = localStoreCheck{}

func (s localStoreCheck) check(op, backend string, err error) {
	if err != nil {
		s.h.localStoreFailed(op, backend, err)
	}
}

// reached reports whether a call that returned err was carried out by the
// store: it succeeded. A call the fault wrapper failed never reached it,
// and one the store failed by itself is already a violation.
func reached(err error) bool { return err == nil }

// localCall appends a call that reached the store, when a checker reads
// it; the event is built only then (build fills in the call's own fields).
func (h *Host) localCall(op, backend string, build func(*history.Local)) {
	if !h.hist.Reads(history.LocalCall) {
		return
	}
	l := &history.Local{Op: op, Store: backend}
	build(l)
	h.appendEvent(history.Event{Kind: history.LocalCall, Actor: h.rt.Actor(), Backend: slices.Index(h.backends.names, backend), Local: l})
	// Valid while observed only: the history must not keep a run's
	// contents and listings alive until its end.
	l.Content, l.Changes, l.Files = nil, nil, nil
}

func (s localStoreCheck) WriteFile(backend, path string, content []byte, deleted bool) (int64, error) {
	defer s.h.localReturned("local.write-file")
	rev, err := s.inner.WriteFile(backend, path, content, deleted)
	s.check("write-file", backend, err)
	if reached(err) {
		s.h.observed.writes.reached(s.h.rt.current)
		s.h.localCall("write-file", backend, func(l *history.Local) {
			l.Path, l.Content, l.Deleted, l.Rev = path, content, deleted, rev
		})
		s.h.checkHandedOut("write-file", backend)
	}
	return rev, err
}

func (s localStoreCheck) ApplyUpstream(backend string, changes []workspace.Change) (int, error) {
	defer s.h.localReturned("local.apply-upstream")
	n, err := s.inner.ApplyUpstream(backend, changes)
	s.check("apply-upstream", backend, err)
	if reached(err) {
		s.h.localCall("apply-upstream", backend, func(l *history.Local) {
			l.Changes, l.N, l.Pos = changes, n, s.h.recordPos(backend)
		})
		s.h.checkHandedOut("apply-upstream", backend)
	}
	return n, err
}

func (s localStoreCheck) Files(backend string) ([]workspace.File, error) {
	defer s.h.localReturned("local.files")
	fs, err := s.inner.Files(backend)
	s.check("files", backend, err)
	if reached(err) {
		s.h.localCall("files", backend, func(l *history.Local) { l.Files = fs })
		s.h.checkHandedOut("files", backend)
		for _, f := range fs {
			s.h.watchHandedOut("files", backend, f.Path, f.Rev, f.Content)
		}
	}
	return fs, err
}

func (s localStoreCheck) CurrentRev(backend string) (int64, error) {
	defer s.h.localReturned("local.current-rev")
	rev, err := s.inner.CurrentRev(backend)
	s.check("current-rev", backend, err)
	if reached(err) {
		s.h.localCall("current-rev", backend, func(l *history.Local) { l.Rev = rev })
	}
	return rev, err
}

func (s localStoreCheck) LocalChanges(backend string, after, through workspace.Cursor, limit int) ([]workspace.Change, error) {
	defer s.h.localReturned("local.local-changes")
	cs, err := s.inner.LocalChanges(backend, after, through, limit)
	s.check("local-changes", backend, err)
	if reached(err) {
		s.h.localCall("local-changes", backend, func(l *history.Local) {
			l.After, l.Through, l.Limit, l.Changes = after, through, limit, cs
		})
		s.h.checkHandedOut("local-changes", backend)
		for _, c := range cs {
			s.h.watchHandedOut("local-changes", backend, c.Path, c.Rev, c.Content)
		}
	}
	return cs, err
}

func (s localStoreCheck) FetchCursor(backend string) (workspace.Cursor, error) {
	defer s.h.localReturned("local.fetch-cursor")
	c, err := s.inner.FetchCursor(backend)
	s.check("fetch-cursor", backend, err)
	if reached(err) {
		s.h.localCall("fetch-cursor", backend, func(l *history.Local) { l.Cursor = c })
	}
	return c, err
}

func (s localStoreCheck) WriteFetchCursor(backend string, c workspace.Cursor) error {
	defer s.h.localReturned("local.write-fetch-cursor")
	err := s.inner.WriteFetchCursor(backend, c)
	s.check("write-fetch-cursor", backend, err)
	if reached(err) {
		s.h.localCall("write-fetch-cursor", backend, func(l *history.Local) { l.Cursor = c })
	}
	return err
}

func (s localStoreCheck) WriteFetchCursorIfAhead(backend string, c workspace.Cursor) (bool, error) {
	defer s.h.localReturned("local.write-fetch-cursor-if-ahead")
	ok, err := s.inner.WriteFetchCursorIfAhead(backend, c)
	s.check("write-fetch-cursor-if-ahead", backend, err)
	if reached(err) {
		s.h.localCall("write-fetch-cursor-if-ahead", backend, func(l *history.Local) { l.Cursor, l.OK = c, ok })
	}
	return ok, err
}

func (s localStoreCheck) PushRev(backend string) (int64, error) {
	defer s.h.localReturned("local.push-rev")
	rev, err := s.inner.PushRev(backend)
	s.check("push-rev", backend, err)
	if reached(err) {
		s.h.localCall("push-rev", backend, func(l *history.Local) { l.Rev, l.Pos = rev, s.h.recordPos(backend) })
		s.h.notePushRevRead(backend, rev)
	}
	return rev, err
}

func (s localStoreCheck) SetPushRev(backend string, rev int64) error {
	defer s.h.localReturned("local.set-push-rev")
	err := s.inner.SetPushRev(backend, rev)
	s.check("set-push-rev", backend, err)
	if reached(err) {
		s.h.localCall("set-push-rev", backend, func(l *history.Local) { l.Rev = rev })
	}
	return err
}

func (s localStoreCheck) PushCursor(backend string) (workspace.Cursor, error) {
	defer s.h.localReturned("local.push-cursor")
	c, err := s.inner.PushCursor(backend)
	s.check("push-cursor", backend, err)
	if reached(err) {
		s.h.localCall("push-cursor", backend, func(l *history.Local) { l.Cursor = c })
	}
	return c, err
}

func (s localStoreCheck) WritePushCursor(backend string, c workspace.Cursor) error {
	defer s.h.localReturned("local.write-push-cursor")
	err := s.inner.WritePushCursor(backend, c)
	s.check("write-push-cursor", backend, err)
	if reached(err) {
		s.h.localCall("write-push-cursor", backend, func(l *history.Local) {
			l.Cursor, l.Remote = c, s.h.remoteAt(backend)
		})
	}
	return err
}
