package faults

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/syncsim/syncsim/workspace"
)

// TestLostCodedFetchFailure: with SetLostCode, some drawn fetch failures
// are the runtime's EEXEC_LOST (outermost, code set, the injected error
// still found by errors.Is, not a transport failure) and the record says
// so; the others stay ordinary. Armed failures never carry the code.
func TestLostCodedFetchFailure(t *testing.T) {
	c := newContainer(Only(RPCError, 1), 1)
	c.SetLostCode(rand.New(rand.NewPCG(7, 7)))
	h := mustConnect(t, c)
	lost, plain := 0, 0
	for range 60 {
		_, err := h.Sync().FetchChanges(ctx, workspace.FetchRequest{})
		if err == nil || !errors.Is(err, ErrInjected) {
			t.Fatalf("fetch: want an injected failure, got %v", err)
		}
		var le *workspace.ExecutionLostError
		coded := errors.As(err, &le)
		if coded && (le.Code != workspace.CodeExecutionLost || !errors.Is(err, workspace.ErrExecutionLost) || errors.Is(err, workspace.ErrTransport)) {
			t.Fatalf("lost-coded failure: code %q, Is(ErrExecutionLost) %t, Is(ErrTransport) %t", le.Code, errors.Is(err, workspace.ErrExecutionLost), errors.Is(err, workspace.ErrTransport))
		}
		rec := c.RecordSince(0)
		last := rec[len(rec)-1]
		if last.Lost != coded || last.Transport {
			t.Fatalf("record: Lost %t Transport %t, error coded %t", last.Lost, last.Transport, coded)
		}
		if coded {
			lost++
		} else {
			plain++
		}
	}
	if lost == 0 || plain == 0 {
		t.Fatalf("want both shapes in 60 failures, got %d lost-coded and %d plain", lost, plain)
	}
	if err := c.lostCodedLocked(errors.New("x"), true); lostCoded(err) {
		t.Fatal("an armed failure carried EEXEC_LOST")
	}
}

// TestAnonymousContainer: an anonymous container's connections report no
// runtime id, before and after a restart and a lost identity.
func TestAnonymousContainer(t *testing.T) {
	c := newContainer(Off(), 1)
	c.SetAnonymous()
	check := func(when string) {
		t.Helper()
		if id, ok := mustConnect(t, c).RuntimeID(); ok {
			t.Fatalf("%s: connection reports runtime %q, want none", when, id)
		}
	}
	check("first launch")
	c.Restart()
	check("after a restart")
	c.LoseIdentity(false)
	check("after a lost identity")
}
