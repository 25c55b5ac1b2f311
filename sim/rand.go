package sim

import "math/rand/v2"

// Stream labels used across the harness. Each concern draws from its own
// stream so that adding a draw in one never shifts another; a new concern gets
// a new label rather than borrowing an existing stream.
const (
	LabelWorkload   = "workload"   // the operation sequence
	LabelInterleave = "interleave" // which actor runs at each blocking point
	LabelProfile    = "profile"    // the swarm fault profile drawn first
)

// FaultsLabel is the label of the fault stream of one backend, so that the
// faults of backend "a" do not move when backend "b" is added or removed.
func FaultsLabel(backend string) string { return "faults/" + backend }

// Stream returns a random stream derived only from seed and label: the same
// pair gives the same sequence on every run, machine and GOMAXPROCS, and
// streams with different labels are independent. The generator is PCG
// (math/rand/v2), keyed by SplitMix64 over the seed mixed with the FNV-1a 64
// hash of the label.
//
// A *rand.Rand is not safe for concurrent use; under the actor runtime only
// one goroutine runs at a time, which is all it needs.
func Stream(seed uint64, label string) *rand.Rand {
	return rand.New(streamSource(seed, label))
}

// streamSource is the PCG source behind Stream(seed, label).
func streamSource(seed uint64, label string) *rand.PCG {
	return rand.NewPCG(streamKeys(seed, fnv1a64(label)))
}

// streamKeys are the PCG seeds of the stream whose label hashes to
// labelHash (fnv1a64).
func streamKeys(seed, labelHash uint64) (hi, lo uint64) {
	state := seed ^ splitMix64(labelHash)
	hi = splitMixNext(&state)
	lo = splitMixNext(&state)
	return hi, lo
}

// fnv1a64 is FNV-1a, 64 bit; written out because hash/fnv allocates and its
// value is what makes streams stable, so it must never change.
func fnv1a64(s string) uint64 { return fnvAdd(fnvOffset, s) }

const fnvOffset = 14695981039346656037

// fnvAdd continues an FNV-1a 64 hash h over s: hashing a label in parts
// gives what hashing the parts joined gives, without joining them.
func fnvAdd(h uint64, s string) uint64 {
	const prime64 = 1099511628211
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= prime64
	}
	return h
}

// splitMixNext advances a SplitMix64 state and returns its next output.
func splitMixNext(state *uint64) uint64 {
	*state += 0x9e3779b97f4a7c15
	return splitMix64(*state)
}

// splitMix64 is the SplitMix64 finaliser: it spreads a weak key (a small
// seed, a hash differing in few bits) over all 64 bits.
func splitMix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
