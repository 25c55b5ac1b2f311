package oracle

import (
	"strings"
	"testing"

	"github.com/syncsim/syncsim/faults"
)

// TestLeakWatch: a second connection open at once is a leak; closing the
// older one ends it; a failed connect opens none; a host start forgets the
// old workspace's connections and ignores its calls.
func TestLeakWatch(t *testing.T) {
	connect := func(seq, conn int) faults.Call { return faults.Call{Seq: seq, Op: faults.OpConnect, Conn: conn} }
	closeC := func(seq, conn int) faults.Call { return faults.Call{Seq: seq, Op: faults.OpClose, Conn: conn} }
	names := []string{"b0", "b1"}

	var w LeakWatch
	w.HostStarted([]int{0, 0})
	w.Note(1, connect(1, 1))
	w.Note(1, faults.Call{Seq: 2, Op: faults.OpConnect, Conn: 2, Err: "refused"})
	if d, leaked := w.Leak(names); leaked {
		t.Fatalf("one open connection and a failed connect reported: %s", d)
	}
	w.Note(1, connect(3, 3))
	d, leaked := w.Leak(names)
	if !leaked || !strings.Contains(d, "backend b1: connection 1 is still open though connection 3") {
		t.Fatalf("two open connections: got %t %q", leaked, d)
	}
	w.Note(1, closeC(4, 1))
	if d, leaked := w.Leak(names); leaked {
		t.Fatalf("the older connection closed, still reported: %s", d)
	}
	w.Note(1, connect(5, 5))
	w.HostStarted([]int{0, 5})
	if d, leaked := w.Leak(names); leaked {
		t.Fatalf("a host start did not forget the old workspace's connections: %s", d)
	}
	w.Note(1, connect(5, 6)) // at or before the mark: the old workspace's
	w.Note(1, connect(6, 7))
	if d, leaked := w.Leak(names); leaked {
		t.Fatalf("a call before the start's mark counted: %s", d)
	}
}
