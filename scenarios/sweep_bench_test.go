package scenarios

import "testing"

// BenchmarkRunMemoryNoProperties is BenchmarkRunMemory judging no
// property (Properties "none"): the driver's own cost, the floor of the
// oracle's.
func BenchmarkRunMemoryNoProperties(b *testing.B) {
	c := MemoryConfig
	c.Properties = "none"
	benchRun(b, c)
}
