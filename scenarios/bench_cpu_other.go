//go:build !unix

package scenarios

import "time"

// cpuTimeSource says where processCPU reads.
const cpuTimeSource = "wall time: this platform has no getrusage, so \"CPU\" figures are wall seconds"

// processStart stands in for CPU accounting where getrusage is missing:
// costs are then wall time.
var processStart = time.Now()

// processCPU is wall time since start on systems without getrusage.
func processCPU() time.Duration { return time.Since(processStart) }
