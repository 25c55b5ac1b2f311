package oracle

import (
	"fmt"
	"slices"

	"github.com/syncsim/syncsim/faults"
)

// Property handle-leak (SPEC 5.3, 5.4): between steps, at most one
// connection the workspace opened to a backend is still open, and it is the
// latest one. A workspace holds at most one cached handle per backend and
// connects only when none is cached (a connect in flight is shared); a
// handle leaves the cache only by invalidation or Close, both of which close
// it, and a connection that failed between connect and publish is closed
// too. So an older connection that is still open has left the cache
// without being closed: a leak, and a sign that the cache dropped the wrong
// handle (an old handle's late failure invalidating its replacement drops
// the replacement unclosed). The invalidate property sees such a fault only
// when the dropped handle fails later; this one sees it at the next connect.
//
// Read from the runtime's record alone (connects that returned a connection,
// closes), per host start: a host restart drops the old workspace's
// connections without closing them, as a killed process does.

// LeakWatch keeps, per backend, the connections opened by the current
// host start's workspace and not closed yet. The zero value is ready.
type LeakWatch struct {
	open [][]int // connection ids, in connect order
	from []int   // record position at the current host start
}

// HostStarted forgets the previous workspace's connections. marks holds,
// per backend, the container's record position at the start
// (faults.Container.Mark): calls up to it belong to the old workspace.
func (w *LeakWatch) HostStarted(marks []int) {
	for len(w.open) < len(marks) {
		w.open, w.from = append(w.open, nil), append(w.from, 0)
	}
	for i, m := range marks {
		w.open[i], w.from[i] = w.open[i][:0], m
	}
}

// Note reads one call of backend b's record, in order.
func (w *LeakWatch) Note(b int, c faults.Call) {
	if b >= len(w.open) || c.Seq <= w.from[b] {
		return
	}
	switch {
	case c.Op == faults.OpConnect && c.Err == "" && c.Conn != 0:
		w.open[b] = append(w.open[b], c.Conn)
	case c.Op == faults.OpClose:
		if i := slices.Index(w.open[b], c.Conn); i >= 0 {
			w.open[b] = slices.Delete(w.open[b], i, i+1)
		}
	}
}

// Leak is handle-leak, between steps: a description of the first backend
// (in order; names[b] names backend b) with more than one connection open.
func (w *LeakWatch) Leak(names []string) (string, bool) {
	for b, open := range w.open {
		if len(open) > 1 {
			return fmt.Sprintf("backend %s: connection %d is still open though connection %d was opened after it: a handle left the cache without being closed (SPEC 5.3, 5.4)",
				names[b], open[0], open[len(open)-1]), true
		}
	}
	return "", false
}
