package scenarios

import "math/rand/v2"

// Backend counts. A workspace keeps one intent per backend and the host one
// alarm for the earliest of them, so the bugs that hide between backends —
// an alarm armed for the last intent written instead of the earliest, a
// FIFO or a cache keyed by the wrong thing, a retry that serves one backend
// and starves the rest, an index off by one past the second backend — need
// more than the two backends most runs have. So when Config.Backends is 0,
// FromSeed draws the count on a stream of its own: two in most seeds (the
// shape the weights and budgets were tuned on), one now and then (nothing to
// confuse a backend with), and in about 1 seed in 8 three to sixteen.
// A scenario file always names its count (backends=N), so it replays the
// same whatever the draw.

// maxDrawnBackends is the most backends FromSeed draws (issue 8: "up to 16
// backends").
const maxDrawnBackends = 16

// manyBackends are the counts of the many-backend seeds, small ones
// favoured: ops spread over many backends leave each with few.
var manyBackends = []int{3, 3, 4, 4, 5, 6, 8, 11, maxDrawnBackends}

// drawBackendCount returns the backend count of a seed whose Config leaves
// it to the draw: 1 in 16 one backend, 2 in 16 many, the rest two.
func drawBackendCount(r *rand.Rand) int {
	switch r.IntN(16) {
	case 0:
		return 1
	case 1, 2:
		return manyBackends[r.IntN(len(manyBackends))]
	default:
		return 2
	}
}
