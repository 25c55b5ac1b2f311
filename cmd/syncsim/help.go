package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// cmdHelp prints the overview, or one subcommand's synopsis and flags.
func cmdHelp(e env, args []string) int {
	switch {
	case len(args) == 0:
		writeOverview(e.stdout)
		return exitOK
	case len(args) > 1:
		return usageError(e, "help", fmt.Sprintf("unexpected argument %q", args[1]))
	}
	for _, c := range commands {
		if c.name == args[0] {
			if c.name == "help" {
				writeOverview(e.stdout)
				return exitOK
			}
			return c.run(e, []string{"-h"}) // prints through flagFailure
		}
	}
	return usageError(e, "help", fmt.Sprintf("unknown subcommand %q", args[0]))
}

func writeOverview(w io.Writer) {
	var b strings.Builder
	b.WriteString("syncsim is a deterministic simulation test harness for durable sync retries.\n\nusage:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  syncsim %-10s %s\n", c.name, c.summary)
	}
	b.WriteString(`
Run 'syncsim help SUBCOMMAND' (or 'syncsim SUBCOMMAND -h') for its flags.

Exit codes: 0 every property held; 1 a property failed or a file's
expectation was not met; 2 a usage or input error, explained in one line
on stderr; 130 run was interrupted (SIGINT, SIGTERM) after printing what
ran. With -json, stdout holds exactly one JSON object.
`)
	io.WriteString(w, b.String())
}

// writeCommandHelp prints a subcommand's synopsis, summary and flags.
func writeCommandHelp(w io.Writer, sub string, fs *flag.FlagSet) {
	for _, c := range commands {
		if c.name == sub {
			fmt.Fprintf(w, "usage: syncsim %s\n\n%s.\n\nflags:\n", c.usage, c.summary)
		}
	}
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}
