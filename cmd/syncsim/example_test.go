package main

import (
	"fmt"
	"os"
	"strings"
)

// Replaying a seed is deterministic: its trace, and so the trace-hash line
// it ends with, is the same on every run.
func Example_replay() {
	var a, b strings.Builder
	run([]string{"replay", "-seed", "42"}, &a, &strings.Builder{})
	run([]string{"replay", "-seed", "42"}, &b, &strings.Builder{})
	fmt.Println(a.String() == b.String())
	// Output: true
}

// A planted bug is found and reported with the exact line that replays it.
// (zero-based-attempts breaks the first failed pull of any scenario, so its
// first failing seed does not move when the generator changes.)
func Example_plantedBug() {
	var out strings.Builder
	code := run([]string{"run", "-bug", "zero-based-attempts", "-seed", "1", "-seeds", "50", "-shrink=false"}, &out, os.Stderr)
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "  syncsim replay") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	fmt.Println("exit", code)
	// Output:
	// syncsim replay -seed 1 -steps 30 -bug zero-based-attempts
	// exit 1
}
