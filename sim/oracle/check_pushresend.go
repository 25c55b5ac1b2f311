package oracle

import "github.com/syncsim/syncsim/sim/history"

// PushResendChecker is the checker of property push-resend (SPEC 6.5-6.7;
// the rule is ResendWatch's): each push cursor the local store took is
// stamped with where the remote stood (a LocalCall event's Remote), and
// every runtime call is walked past the watch in record order.
type PushResendChecker struct {
	names []string
	watch ResendWatch
}

// Reads: the local store's push cursor writes and the runtime's calls.
func (c *PushResendChecker) Reads() history.Kinds {
	return history.Of(history.LocalCall, history.RuntimeCall)
}

// Begin starts a run.
func (c *PushResendChecker) Begin(s history.Setup, _ history.Records) {
	c.names = s.Backends
	c.watch.Init(len(s.Backends))
}

// Observe reads one event.
func (c *PushResendChecker) Observe(e *history.Event, rep history.Reporter) {
	switch e.Kind {
	case history.LocalCall:
		if e.Local.Op != "write-push-cursor" || e.Backend < 0 {
			return
		}
		mark := e.Local.Cursor
		if applied := e.Local.Remote.AppliedPush; applied.Less(mark) {
			mark = applied
		}
		c.watch.Acknowledged(e.Backend, PushMark{Seq: e.Local.Remote.Mark, Epoch: e.Local.Remote.LogEpoch, Cursor: mark})
	case history.RuntimeCall:
		reached, detail := c.watch.Note(e.Backend, c.names[e.Backend], *e.Runtime)
		if reached {
			rep.Reach("push-after-ack")
		}
		if detail != "" {
			rep.Violate("push-resend", detail)
		}
	}
}
