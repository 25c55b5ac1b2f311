package model

import (
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/syncsim/syncsim/scheduler"
)

// TestStateTableMatchesAMap: the table kept as a slice sorted by backend
// answers as a map of backend to intent would, through any sequence of
// sets, replacements and removals (backends beyond ASCII included), and an
// update never changes a table it was made from.
func TestStateTableMatchesAMap(t *testing.T) {
	backends := []string{"b0", "b1", "B0", "后端1", "x", "", "b10", "b2"}
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		s, ref := Empty(), map[string]scheduler.Intent{}
		for step := range 40 {
			b := backends[r.IntN(len(backends))]
			before, beforeRef := s, snapshot(ref)
			if r.IntN(3) == 0 {
				s = s.with(b, nil)
				delete(ref, b)
			} else {
				in := scheduler.Intent{Backend: b, Attempt: 1 + r.IntN(9)}
				s = s.with(b, &in)
				ref[b] = in
			}
			if d := cmp.Diff(beforeRef, before.Intents()); d != "" {
				t.Fatalf("round %d step %d: an update changed the table it came from (-was +now):\n%s", round, step, d)
			}
			if d := cmp.Diff(snapshot(ref), s.Intents()); d != "" {
				t.Fatalf("round %d step %d: table differs from the map (-map +table):\n%s", round, step, d)
			}
			for _, q := range backends {
				got, ok := s.Intent(q)
				want, wantOK := ref[q]
				if ok != wantOK || ok && got.Attempt != want.Attempt {
					t.Fatalf("round %d step %d: Intent(%q) = %v, %v; want %v, %v", round, step, q, got, ok, want, wantOK)
				}
			}
		}
	}
}

// snapshot lists a map's intents ordered by backend, as Intents does.
func snapshot(m map[string]scheduler.Intent) []scheduler.Intent {
	out := make([]scheduler.Intent, 0, len(m))
	for _, in := range m {
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Backend < out[j].Backend })
	return out
}
