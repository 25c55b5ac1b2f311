package schedulertest

import (
	"strings"

	"github.com/syncsim/syncsim/scheduler"
)

// checkListSorted applies to Listers: List returns every stored intent
// exactly once, ordered by backend id bytewise (the host computes its alarm
// from it, so a missing intent is a stranded retry), and agrees with Get.
func checkListSorted(c *checker) {
	l, ok := c.lister()
	if !ok {
		return
	}
	if got, err := l.List(c.ctx); err != nil {
		c.errorf("List on empty store: %v", err)
	} else if len(got) != 0 {
		c.errorf("List on empty store returned %d intents", len(got))
	}
	// Scheduled out of order on purpose; "B" < "a" bytewise.
	ids := []string{"m", "a", "B", "ab", "a/b", "z", "ä"}
	want := map[string]scheduler.Intent{}
	for i, id := range ids {
		in := intent(id, i+1)
		if c.schedule(in) {
			want[id] = in
		}
	}
	c.clear("z")
	delete(want, "z")
	got, err := l.List(c.ctx)
	if err != nil {
		c.errorf("List: %v", err)
		return
	}
	for i := 1; i < len(got); i++ {
		if strings.Compare(got[i-1].Backend, got[i].Backend) >= 0 {
			c.errorf("List not strictly sorted by backend: %q before %q", got[i-1].Backend, got[i].Backend)
		}
	}
	seen := map[string]bool{}
	for _, in := range got {
		w, ok := want[in.Backend]
		switch {
		case !ok:
			c.errorf("List returned %s, which is not stored", Describe(in))
		case !c.same(w, in):
			c.errorf("List returned %s, want %s", Describe(in), Describe(w))
		}
		seen[in.Backend] = true
	}
	for _, id := range ids {
		if _, ok := want[id]; ok && !seen[id] {
			c.errorf("List left out backend %q", id)
		}
	}
}
