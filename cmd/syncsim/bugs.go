package main

import (
	"fmt"

	"github.com/syncsim/syncsim/scenarios"
)

// cmdBugs lists the planted-bug catalogue, one `name<TAB>class` per line,
// in the catalogue's order.
func cmdBugs(e env, args []string) int {
	fs := newFlagSet("bugs")
	jsonOut := fs.Bool("json", false, "write one JSON object on stdout")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagFailure(e, "bugs", fs, err)
	}
	if len(pos) > 0 {
		return usageError(e, "bugs", fmt.Sprintf("unexpected argument %q", pos[0]))
	}
	if *jsonOut {
		type bugJSON struct {
			Name  string `json:"name"`
			Class string `json:"class"`
		}
		out := struct {
			Bugs []bugJSON `json:"bugs"`
		}{Bugs: []bugJSON{}}
		for _, b := range scenarios.Bugs {
			out.Bugs = append(out.Bugs, bugJSON{b.Name, b.Class})
		}
		if err := writeJSON(e.stdout, out); err != nil {
			return inputError(e, "bugs", err)
		}
		return exitOK
	}
	for _, b := range scenarios.Bugs {
		fmt.Fprintf(e.stdout, "%s\t%s\n", b.Name, b.Class)
	}
	return exitOK
}
