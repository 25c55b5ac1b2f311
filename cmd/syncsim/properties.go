package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/syncsim/syncsim/sim/oracle"
)

// cmdProperties lists the property registry, one property a line:
// name, SPEC section, basis, where it is judged and what it checks; with
// -json one object. The names are what -properties takes.
func cmdProperties(e env, args []string) int {
	fs := newFlagSet("properties")
	jsonOut := fs.Bool("json", false, "write one JSON object on stdout")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagFailure(e, "properties", fs, err)
	}
	if len(pos) > 0 {
		return usageError(e, "properties", fmt.Sprintf("unexpected argument %q", pos[0]))
	}
	if *jsonOut {
		type propertyJSON struct {
			Name   string `json:"name"`
			Spec   string `json:"spec"`
			Basis  string `json:"basis"`
			Judged string `json:"judged_by"`
			Reads  string `json:"reads"`
			What   string `json:"what"`
		}
		out := struct {
			Properties []propertyJSON `json:"properties"`
		}{Properties: []propertyJSON{}}
		for i := range oracle.Registry {
			p := &oracle.Registry[i]
			out.Properties = append(out.Properties, propertyJSON{p.Name, p.Spec, string(p.Basis), p.JudgedBy(), p.Reads().String(), p.What})
		}
		if err := writeJSON(e.stdout, out); err != nil {
			return inputError(e, "properties", err)
		}
		return exitOK
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROPERTY\tSPEC\tBASIS\tJUDGED BY\tWHAT IT CHECKS")
	for i := range oracle.Registry {
		p := &oracle.Registry[i]
		spec := p.Spec
		if spec == "" {
			spec = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.Name, spec, p.Basis, p.JudgedBy(), p.What)
	}
	if err := tw.Flush(); err != nil {
		return inputError(e, "properties", err)
	}
	return exitOK
}
