package scenarios

import (
	"fmt"
	"slices"
	"strings"
)

// maxStackLines bounds the goroutine stacks a report prints.
const maxStackLines = 160

// StacksExcerpt returns the first maxStackLines lines of a goroutine dump
// (sim.Violation.Stacks), each after indent, with a count of what it left
// out. Goroutines that run the system under test and are blocked somewhere
// other than the actor runtime's own hand-off come first: that is where a
// hang is stuck (a sweep's other workers and the parked actors follow).
func StacksExcerpt(stacks, indent string) string {
	blocks := strings.Split(strings.TrimRight(stacks, "\n"), "\n\n")
	stuck := func(g string) bool {
		if !strings.Contains(g, "github.com/syncsim/syncsim/") {
			return false
		}
		for _, ours := range []string{"sim.(*Runtime).suspend(", "sim.(*Runtime).Run(", "sim.WatchRun(", "sim.AllStacks("} {
			if strings.Contains(g, ours) {
				return false // the runtime's own waits and the reporter
			}
		}
		return true
	}
	slices.SortStableFunc(blocks, func(a, b string) int {
		switch sa, sb := stuck(a), stuck(b); {
		case sa && !sb:
			return -1
		case sb && !sa:
			return 1
		}
		return 0
	})
	lines := strings.Split(strings.Join(blocks, "\n\n"), "\n")
	var b strings.Builder
	for i, l := range lines {
		if i == maxStackLines {
			fmt.Fprintf(&b, "%s... %d more lines\n", indent, len(lines)-i)
			break
		}
		b.WriteString(indent + l + "\n")
	}
	return b.String()
}
