package faults

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/syncsim/syncsim/workspace"
)

// Every shape keeps its failure's class under SPEC 5.2's classifiers, keeps
// the InjectedError in the chain, and is drawn.
func TestErrorShapesKeepTheClass(t *testing.T) {
	for msg, class := range classOf {
		counts := map[string]int{}
		r := rand.New(rand.NewPCG(3, uint64(len(msg))))
		for range 600 {
			err := shape(r, &InjectedError{Kind: TransportConnect, Msg: msg}, counts)
			if !errors.Is(err, ErrInjected) || faultOf(err) != TransportConnect {
				t.Fatalf("%q: the InjectedError left the chain: %v", msg, err)
			}
			if got := workspace.IsTransportFailure(err); !got {
				t.Fatalf("%q: %v is not a transport failure", msg, err)
			}
			if got, want := workspace.IsPreDispatchTransportFailure(err), class == classPreDispatch; got != want {
				t.Fatalf("%q: %v: pre-dispatch = %v, want %v", msg, err, got, want)
			}
		}
		for _, name := range errShapes {
			if counts[name] == 0 {
				t.Errorf("%q: shape %s never drawn in 600", msg, name)
			}
		}
	}
	// A failure that is not a transport one keeps its plain form.
	e := &InjectedError{Kind: SettleFailure, Msg: msgSettle}
	if got := shape(rand.New(rand.NewPCG(1, 1)), e, map[string]int{}); got != error(e) || workspace.IsTransportFailure(got) {
		t.Fatalf("settle failure shaped: %v", got)
	}
}

// Outside the phrase shape no message carries a phrase: the class must
// come from the shape, so a classifier that lost a branch misclassifies.
func TestErrorShapesCarryNoPhrase(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for range 600 {
		counts := map[string]int{}
		err := shape(r, &InjectedError{Kind: TransportPostDispatch, Msg: msgPostDispatch}, counts)
		if counts["phrase"] > 0 {
			continue
		}
		if matches := workspace.IsTransportFailure(errors.New(err.Error())); matches {
			t.Fatalf("shaped text still carries a transport phrase: %q", err.Error())
		}
	}
}
