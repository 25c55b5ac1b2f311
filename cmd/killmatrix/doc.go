/*
Killmatrix measures the oracle: it applies hand-written mutants of the
system under test (workspace, scheduler) one at a time and reports which the
default property sweep kills, which only the example tests kill, and which
survive both. It is a measuring tool outside the production API: the
mutants live in a catalogue file and reach the compiler through
`go build -overlay` / `go test -overlay`, so no source file is ever modified
in place and production code carries no switch for them.

Usage (from anywhere inside the module):

	go run ./cmd/killmatrix -check                 validate the catalogue, build nothing
	go run ./cmd/killmatrix -check -build          ... and compile every mutant
	go run ./cmd/killmatrix -list                  list the mutants
	nice go run ./cmd/killmatrix -o docs/killmatrix.md
	go run ./cmd/killmatrix -mutant 'pullbatch|alarm' -j 2
	go run ./cmd/killmatrix -generate 100 -gen-seed 7 -o /tmp/gen.txt
	go run ./cmd/killmatrix -catalogue /tmp/gen.txt -examples=false -j 2

# Flags

	-mutant RE     measure only mutants whose name matches RE
	-seeds N       property sweep budget (default 600, TestSweep's)
	-seed S        first seed (default 1)
	-j N           mutants measured in parallel (default 1)
	-examples      also run the example tests (default true; false measures
	               the property sweep alone, e.g. at a deeper -seeds)
	-o FILE        write the markdown report into FILE, between its
	               killmatrix:begin/end markers when it has them (text
	               around them is kept), else as a new file; default stdout
	-timeout D     bound on each build, sweep and test run (default 5m; the
	               test binaries get 9/10 of it, so a hang names its test)
	-catalogue F   the catalogue (default cmd/killmatrix/testdata/mutants.txt;
	               a relative path is taken from the module root)
	-generate N    instead of measuring: write a catalogue of N generated
	               operator mutants (go-gremlins' kinds: boundaries, negated
	               comparisons, && and ||, ++ and --, the sign of an integer
	               step, a dropped !, an integer literal one less), drawn
	               from -gen-seed and spread over every mutable file, to -o
	               or stdout. The hand-written catalogue holds the mistakes
	               its authors thought of; a generated one samples the rest
	               (uncurated: some are equivalent, a few may not compile)
	-gen-seed S    with -generate: the seed (default 1)

# What one mutant goes through

 1. The mutant's original lines must occur exactly once, on whole lines,
    in its file; the edited file must still parse. Otherwise the catalogue
    is broken and the run stops before building anything.
 2. The edited file is written to a private temporary directory and named
    in an overlay.
 3. Property sweep: `syncsim run -seeds N -seed S -json -shrink=false
    -max-failures 1 -workers 1`, built from the overlaid tree. 600 seeds
    from 1 is the budget `go test ./...` sweeps (scenarios.TestSweep, same
    generator and DefaultConfig as `syncsim run`). Only a property
    violation reported in the JSON is a kill; golden digests, corpus
    hashes and the reachability counts of TestSweep are deliberately not
    consulted (a mutant that only changes a trace line is not caught by
    any property). The report gives the property and the number of seeds
    run up to the first failing one.
 4. Example tests: `go test -vet=off ./workspace ./scheduler/...` with the
    overlay (vet is off: a vet complaint about the edit is not a test
    catching a bug). The report names the first failing test.
 5. Outcome: killed by the property sweep; killed only by example tests;
    survived; or not measured (the mutant does not compile, a probe timed
    out or could not run; the tool exits 2).

Before any mutant, the unmutated tree must pass both probes (baseline);
otherwise every mutant would look killed. The kill rate is over the
mutants not marked equivalent.

# Catalogue format

	# a comment (outside snippets only)
	mutant NAME                lower-case words joined by '-', unique
	file PATH                  a non-test .go file of workspace/, scheduler/
	                           or scheduler/sqlitedb/, relative to the root
	desc ONE LINE              what the engineer changed
	equivalent REASON          optional: why no test can tell it apart
	--- original
	<the original lines, verbatim, tabs included>
	--- replacement
	<the new lines; none to delete the original>
	--- end

Snippet lines are taken verbatim up to the next marker line; a marker
starts with "--- ", which no gofmt'ed Go line does. Every production file
that holds code (a function body, a var or const) must have at least one
mutant; files of type declarations only and doc.go are exempt.

`go test ./cmd/killmatrix` checks the parser, the exact-once matching and
the real catalogue against the tree (no build, no sweep), so a snippet that
drifts from the code fails the ordinary test run.

# Exit codes

	0  the matrix or the check ran (kills and survivors are data, not errors)
	2  bad flags, a broken catalogue, a failing baseline, or a mutant that
	   could not be measured
*/
package main
