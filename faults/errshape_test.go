package faults

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/syncsim/syncsim/workspace"
)

// Every shape keeps its failure's class under SPEC 5.2's classifiers, keeps
// the InjectedError in the chain, and is drawn.
func TestErrorShapesKeepTheClass(t *testing.T) {
	for msg, class := range classOf {
		counts, depths := map[string]int{}, map[int]int{}
		r := rand.New(rand.NewPCG(3, uint64(len(msg))))
		for range 600 {
			err := shape(r, &InjectedError{Kind: TransportConnect, Msg: msg, class: class}, counts, false)
			if !errors.Is(err, ErrInjected) || faultOf(err) != TransportConnect {
				t.Fatalf("%q: the InjectedError left the chain: %v", msg, err)
			}
			want := class
			if classDepth(err) >= classifierDepth {
				want = classNone // past SPEC 5.2's 8 levels: no class at all
			}
			if got := classOfError(err); got != want {
				t.Fatalf("%q: %v: recorded class %d, want %d", msg, err, got, want)
			}
			if got := workspace.IsTransportFailure(err); got != (want != classNone) {
				t.Fatalf("%q: %v: transport = %v, want %v", msg, err, got, want != classNone)
			}
			if got := workspace.IsPreDispatchTransportFailure(err); got != (want == classPreDispatch) {
				t.Fatalf("%q: %v: pre-dispatch = %v, want %v", msg, err, got, want == classPreDispatch)
			}
			depths[classDepth(err)]++
		}
		// Both sides of the classifiers' bound are planted.
		for _, d := range []int{classifierDepth - 1, classifierDepth} {
			if depths[d] == 0 {
				t.Errorf("%q: no class planted at depth %d in 600", msg, d)
			}
		}
		for _, name := range append(slices.Clone(errShapes), "too-deep") {
			if counts[name] == 0 {
				t.Errorf("%q: shape %s never drawn in 600", msg, name)
			}
		}
	}
	// A failure that is not a transport one keeps its plain form.
	e := &InjectedError{Kind: SettleFailure, Msg: msgSettle}
	if got := shape(rand.New(rand.NewPCG(1, 1)), e, map[string]int{}, false); got != error(e) || workspace.IsTransportFailure(got) {
		t.Fatalf("settle failure shaped: %v", got)
	}
}

// Outside the phrase shape no message carries a phrase: the class must
// come from the shape, so a classifier that lost a branch misclassifies.
func TestErrorShapesCarryNoPhrase(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for range 600 {
		counts := map[string]int{}
		err := shape(r, &InjectedError{Kind: TransportPostDispatch, Msg: msgPostDispatch}, counts, false)
		if counts["phrase"] > 0 {
			continue
		}
		if matches := workspace.IsTransportFailure(errors.New(err.Error())); matches {
			t.Fatalf("shaped text still carries a transport phrase: %q", err.Error())
		}
	}
}

// classDepth is how many causes below err the first class carrier sits (a
// TransportError, a sentinel of SPEC 5.2, or an Is method naming one),
// walked without a bound; -1 when there is none.
func classDepth(err error) int {
	best := -1
	var walk func(e error, d int)
	walk = func(e error, d int) {
		if e == nil || (best >= 0 && d >= best) {
			return
		}
		switch e.(type) {
		case *workspace.TransportError, *workspace.PreDispatchTransportError, *classedError:
			best = d
			return
		}
		if e == workspace.ErrTransport || e == workspace.ErrPreDispatchTransport {
			best = d
			return
		}
		switch u := e.(type) {
		case interface{ Unwrap() []error }:
			for _, c := range u.Unwrap() {
				walk(c, d+1)
			}
		default:
			walk(errors.Unwrap(e), d+1)
		}
	}
	walk(err, 0)
	return best
}
