package faults

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/syncsim/syncsim/workspace"
)

// recordingHooks remembers every blocking point.
type recordingHooks struct{ points []string }

func (h *recordingHooks) Block(p string) { h.points = append(h.points, p) }
func (h *recordingHooks) Actor() string  { return "#1.test.b0" }

// Every local-store call is a blocking point; an injected fault fails the
// call before the inner store is touched (nothing half-written), wraps
// ErrInjected, is recorded with the runtime-record position, and carries no
// transport phrase (the workspace must not reconnect over it). The profile
// value is spread over a sync's calls: at 1, about one call in
// localCallsPerSync fails.
func TestLocalStoreBlocksAndFailsBeforeTheStore(t *testing.T) {
	hooks := &recordingHooks{}
	inner := workspace.NewMemoryStore()
	pr := Only(LocalIO, 1)
	s := NewLocalStore(inner, hooks, rand.New(rand.NewPCG(1, 2)), &pr, func(string) int { return 7 })
	const calls = 400
	failed := 0
	for i := range calls {
		_, err := s.WriteFile("b0", fmt.Sprintf("/f%d", i), []byte("x"), false)
		switch {
		case err == nil:
		case !errors.Is(err, ErrInjected) || workspace.IsTransportFailure(err):
			t.Fatalf("call %d: err %v, want injected and not a transport failure", i, err)
		default:
			failed++
		}
	}
	if fs, _ := inner.Files("b0"); len(fs) != calls-failed {
		t.Fatalf("%d files stored after %d of %d writes failed: a failed write reached the store", len(fs), failed, calls)
	}
	if lo, hi := calls/localCallsPerSync/2, 2*calls/localCallsPerSync; failed < lo || failed > hi {
		t.Errorf("%d of %d calls failed at p=1, want about 1 in %d", failed, calls, localCallsPerSync)
	}
	got := s.Faults(0)
	if len(got) != failed || got[0].Op != "write-file" || got[0].Pos != 7 || got[0].Actor != "#1.test.b0" || got[0].Seq != 1 {
		t.Fatalf("faults recorded: %d, first %+v", len(got), got[0])
	}
	s.SetFaults(false)
	if _, err := s.ApplyUpstream("b0", nil); err != nil {
		t.Fatalf("faults off: %v", err)
	}
	if len(hooks.points) != calls+1 || hooks.points[0] != "local.write-file" || hooks.points[calls] != "local.apply-upstream" {
		t.Errorf("blocking points: %d, want one per call", len(hooks.points))
	}
	if s.Mark() != failed {
		t.Errorf("Mark = %d after %d faults", s.Mark(), failed)
	}
}
