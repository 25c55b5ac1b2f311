package sim

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/workspace"
)

// fileIndex answers like a map whatever the order of the listing and of the
// lookups: forward, backward, repeated, absent paths.
func TestFileIndexAnswersLikeAMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		var files []workspace.File
		want := map[string][]byte{}
		for i := range r.IntN(40) {
			p := "/p/" + strconv.Itoa(r.IntN(60))
			if _, dup := want[p]; dup {
				continue
			}
			c := []byte(strconv.Itoa(i))
			files = append(files, workspace.File{Path: p, Content: c})
			want[p] = c
		}
		if round%2 == 0 { // the store's promise; odd rounds break it
			slices.SortFunc(files, func(a, b workspace.File) int { return strings.Compare(a.Path, b.Path) })
		}
		x := contentByPath(files)
		queries := make([]string, 0, 80)
		for range 80 {
			queries = append(queries, "/p/"+strconv.Itoa(r.IntN(70)))
		}
		if round%4 < 2 {
			slices.Sort(queries) // the checks' usual order
		}
		for _, q := range queries {
			got, ok := x.get(q)
			w, wok := want[q]
			if ok != wok || string(got) != string(w) {
				t.Fatalf("round %d: get(%s) = %q, %t; want %q, %t", round, q, got, ok, w, wok)
			}
		}
	}
}
