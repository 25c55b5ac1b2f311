//go:build !unix

package main

import "time"

// selfCPU has no process CPU clock on this platform: zero, and the shares
// -by-property prints are then meaningless.
func selfCPU() time.Duration { return 0 }
