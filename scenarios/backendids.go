package scenarios

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/syncsim/syncsim/sim"
)

// Backend ids. The workspace, its stores and the trace know a backend by
// its id; a store that folds case, cuts long keys, mangles non-ASCII or
// assumes ids look like "b0" would pass every run whose ids are "b0" and
// "b1". So FromSeed gives about 1 seed in backendIDsOneIn ids of other
// shapes, drawn per backend on a stream of their own (the workload and
// every fault draw stay the same: those are labelled "bN" whatever the
// id): mixed case, long, non-ASCII (Latin, CJK, an astral letter, a
// titlecase digraph), digits only, characters JSON quoting escapes or an
// HTML-safe encoder would; and in about a third of those, two
// backends whose ids differ only in case. A file names them with
// ids=<id>,<id>,... on its run line, printed only when set.

// backendIDsOneIn: how rarely FromSeed draws ids other than the labels.
const backendIDsOneIn = 4

// idForms build a candidate id for backend i.
var idForms = []func(i int) string{
	func(i int) string { return sim.BackendLabel(i) },
	func(i int) string { return "Backend-" + strconv.Itoa(i) },
	func(i int) string { return "WORKSPACE_" + strconv.Itoa(i) },
	func(i int) string { return strings.Repeat("long", 30) + "-" + strconv.Itoa(i) }, // 120 bytes and more
	func(i int) string { return "bäckend-ø" + strconv.Itoa(i) },
	func(i int) string { return "后端" + strconv.Itoa(i) },
	func(i int) string { return "𝔟𝔞𝔠𝔨" + strconv.Itoa(i) }, // astral: two UTF-16 units each
	func(i int) string { return "ǅ" + strconv.Itoa(i) },    // a titlecase digraph: its lower and upper case differ from it
	func(i int) string { return "0" + strconv.Itoa(i) },
	// Characters JSON quoting treats apart: a backslash it escapes, and
	// <, > and & that an HTML-safe encoder would escape and the SPEC's
	// messages keep as they are (property error-text reads the quoted id).
	func(i int) string { return `b\<&>` + strconv.Itoa(i) },
}

// drawBackendIDs returns n ids drawn from r, or nil (the labels) in most
// seeds.
func drawBackendIDs(r *rand.Rand, n int) []string {
	if r.IntN(backendIDsOneIn) != 0 {
		return nil
	}
	ids := make([]string, n)
	seen := map[string]bool{}
	for i := range ids {
		id := idForms[r.IntN(len(idForms))](i)
		if seen[id] {
			id = sim.BackendLabel(i) // labels never collide: each has its own index
		}
		ids[i], seen[id] = id, true
	}
	if n >= 2 && r.IntN(3) == 0 {
		// Two backends one case apart: a store keyed case-insensitively
		// merges them.
		ids[0], ids[1] = "Main", "main"
	}
	if err := sim.ValidBackendIDs(ids, n); err != nil {
		panic("scenarios: drawn backend ids are invalid: " + err.Error())
	}
	return ids
}

// formatBackendIDs joins ids as Config.BackendIDs and the run line hold
// them ("" for nil).
func formatBackendIDs(ids []string) string { return strings.Join(ids, ",") }

// backendIDs splits Config.BackendIDs (nil when unset).
func (c Config) backendIDs() []string {
	if c.BackendIDs == "" {
		return nil
	}
	return strings.Split(c.BackendIDs, ",")
}
