package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/syncsim/syncsim/scenarios"
)

// cmdExplain runs one scenario (the first case of FILE, or -seed) with its
// full trace and writes the self-contained HTML timeline that
// renderExplainHTML (explain.go) draws. The page is written either way
// (it marks the violation); the exit code is replay's: 1 when a property
// was violated, 0 when every property held.
func cmdExplain(e env, args []string) int {
	fs := newFlagSet("explain")
	var shape shapeFlags
	shape.register(fs)
	var seed seedFlag
	fs.Var(&seed, "seed", "explain the scenario `seed` S generates (with the shape flags)")
	out := fs.String("html", "", "write the HTML page here (required)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagFailure(e, "explain", fs, err)
	}
	if *out == "" {
		return usageError(e, "explain", "flag -html OUT.html is required")
	}
	cases, code := replayCases(e, "explain", fs, &shape, seed, pos)
	if code != exitOK {
		return code
	}
	c := cases[0]
	r, err := scenarios.Run(c.scenario, scenarios.RunOptions{})
	if err != nil {
		return inputError(e, "explain", fmt.Errorf("%s: %w", c.pos, err))
	}
	var page bytes.Buffer
	if err := renderExplainHTML(&page, c.scenario, r); err != nil {
		return inputError(e, "explain", fmt.Errorf("%s: render: %w", c.pos, err))
	}
	if err := os.WriteFile(*out, page.Bytes(), 0o644); err != nil {
		return inputError(e, "explain", err)
	}
	verdict := "every property held"
	if v := r.Violation; v != nil {
		verdict = "property " + v.Property + " violated"
	}
	fmt.Fprintf(e.stdout, "syncsim: wrote %s (%s: %s, %d trace lines)\n", *out, c.pos, verdict, r.Trace.Len())
	if r.Violation != nil {
		return exitFail
	}
	return exitOK
}
