package sim

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestTraceSealedReadsTheSameAfterItsLogIsReused: seal hands the log to
// the next trace, so everything a sealed trace still answers must come
// from memory of its own. The old log is overwritten here, as a reuse
// would, and the sealed trace must read as its never-sealed twin, before
// and after one more line.
func TestTraceSealedReadsTheSameAfterItsLogIsReused(t *testing.T) {
	for _, keep := range []int{-1, 0, 1, 5, 64} {
		t.Run(fmt.Sprint("keep=", keep), func(t *testing.T) {
			sealed, twin := NewTrace(traceStart), NewTrace(traceStart)
			for _, tr := range []*Trace{sealed, twin} {
				tr.Header("seed 9")
				if keep >= 0 {
					tr.Keep(keep)
				}
				for i := range 400 { // enough lines for several flushes and compactions
					tr.Add(traceStart.Add(time.Duration(i)*time.Millisecond), "a", "e",
						fmt.Sprintf("i=%d", i), "pad="+strings.Repeat("p", i%97))
				}
			}
			old := sealed.log
			sealed.seal()
			scribble := old[:cap(old)]
			for i := range scribble {
				scribble[i] = 'x'
			}
			same := func(when string) {
				t.Helper()
				if got, want := sealed.Lines(), twin.Lines(); !slices.Equal(got, want) {
					t.Fatalf("%s: Lines differ from the unsealed twin:\n%q\nwant\n%q", when, got, want)
				}
				if got, want := sealed.Hash(), twin.Hash(); got != want {
					t.Fatalf("%s: Hash = %s, want the twin's %s", when, got, want)
				}
				var a, b strings.Builder
				sealed.WriteTo(&a)
				twin.WriteTo(&b)
				if a.String() != b.String() {
					t.Fatalf("%s: WriteTo differs from the twin's", when)
				}
				if got, want := len(sealed.Events()), len(twin.Events()); got != want {
					t.Fatalf("%s: %d events, the twin has %d", when, got, want)
				}
			}
			same("sealed")
			for _, tr := range []*Trace{sealed, twin} {
				tr.Add(traceStart.Add(time.Second), "b", "late", "k=v")
			}
			same("a line after the seal")
		})
	}
}
