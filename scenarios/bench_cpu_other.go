//go:build !unix

package scenarios

import "time"

// processStart stands in for CPU accounting where getrusage is missing:
// costs are then wall time.
var processStart = time.Now()

// processCPU is wall time since start on systems without getrusage.
func processCPU() time.Duration { return time.Since(processStart) }
