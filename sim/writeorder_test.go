package sim

import "testing"

// A write that reached the store before the path's latest acknowledged
// one is superseded; a later one, or one of another path or backend, is
// not; a write whose arrival is unknown never is.
func TestWriteOrderSupersedes(t *testing.T) {
	var w writeOrder
	first, second := &actor{}, &actor{}
	w.reached(first)  // 1
	w.reached(second) // 2
	w.reached(nil)    // 3: the host's own write, numbered all the same
	if got := w.take(second); got != 2 {
		t.Fatalf("second reached at %d, want 2", got)
	}
	if got := w.take(second); got != 0 {
		t.Fatalf("take forgets: got %d, want 0", got)
	}
	if w.superseded("b0", "/host/p", 2) {
		t.Fatal("the path's first acknowledgement cannot be superseded")
	}
	if !w.superseded("b0", "/host/p", w.take(first)) {
		t.Fatal("a write that reached the store before the acknowledged one must be superseded")
	}
	if w.superseded("b1", "/host/p", 1) || w.superseded("b0", "/host/q", 1) {
		t.Fatal("another backend's or path's write is not superseded")
	}
	if w.superseded("b0", "/host/p", 0) {
		t.Fatal("a write of unknown arrival is never superseded")
	}
	if w.superseded("b0", "/host/p", 4) || !w.superseded("b0", "/host/p", 3) {
		t.Fatal("a later write becomes the path's latest")
	}
}
