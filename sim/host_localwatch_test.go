package sim

import (
	"strconv"
	"testing"
)

// The watch keeps the newest maxWatched contents: a change to one it kept
// is found, a change to one it dropped is not, and forget drops them all.
func TestHandedOutWatchKeepsTheNewest(t *testing.T) {
	var w handedOutWatch
	bufs := make([][]byte, maxWatched+3)
	for i := range bufs {
		bufs[i] = []byte("content " + strconv.Itoa(i))
		w.keep(handedOut{path: "/p" + strconv.Itoa(i), buf: bufs[i], was: append([]byte(nil), bufs[i]...)})
	}
	if _, ok := w.changed(); ok {
		t.Fatal("nothing changed yet")
	}
	bufs[0][0] = 'X' // dropped: the watch holds the newest maxWatched
	if e, ok := w.changed(); ok {
		t.Fatalf("a dropped content was still watched: %s", e.path)
	}
	bufs[maxWatched][0] = 'X'
	if e, ok := w.changed(); !ok || e.path != "/p"+strconv.Itoa(maxWatched) {
		t.Fatalf("changed = %q, %t; want /p%d", e.path, ok, maxWatched)
	}
	w.forget()
	if _, ok := w.changed(); ok || len(w.kept) != 0 {
		t.Fatal("forget must drop every watched content")
	}
}
