package faults

import (
	"fmt"
	"strconv"
	"strings"
)

// A command that only ever makes new files leaves most of the pull's apply
// path unexercised: no upstream entry ever replaces a file the host holds,
// no delete entry ever reaches the local store, and no two paths differ
// only in case. `write` therefore takes edit options, all parts of the same
// one mutation (one rev) as its new files:
//
//	rewrite=<r>  rewrite r live container-side files with new content
//	delete=<d>   delete d other live container-side files
//	twins        write /out/<seq>-Case, /out/<seq>-case and /out/<seq>-ü too
//
// The files edited are the container's choice, not the caller's: the
// caller cannot know what the remote holds when the command runs (another
// command, a restart or a truncation may have changed it since), and a
// command naming paths would fail where a shrunk scenario no longer made
// them. When fewer live files exist than asked, it edits those there are.

// twinNames are the names `write ... twins` adds: two that differ only in
// case (a store folding case loses one) and a non-ASCII one.
var twinNames = [...]string{"Case", "case", "ü"}

// maxEditsPerCommand bounds rewrite= and delete=.
const maxEditsPerCommand = 64

// writeArgs is a parsed `write` command.
type writeArgs struct {
	files   int
	size    int // -1: unpadded
	rewrite int
	delete  int
	twins   bool
}

func (w writeArgs) edits() bool { return w.rewrite > 0 || w.delete > 0 || w.twins }

// parseWrite reads the arguments of `write`: a count, an optional size,
// then edit options in any order.
func parseWrite(args []string) (writeArgs, error) {
	w := writeArgs{size: -1}
	if len(args) == 0 {
		return w, fmt.Errorf("want a count in [0,%d], got none", maxWritesPerCommand)
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 0 || n > maxWritesPerCommand {
		return w, fmt.Errorf("want a count in [0,%d], got %q", maxWritesPerCommand, args[0])
	}
	w.files = n
	rest := args[1:]
	if len(rest) > 0 && !strings.Contains(rest[0], "=") && rest[0] != "twins" {
		if w.size, err = strconv.Atoi(rest[0]); err != nil || w.size < 0 || w.size > maxFileBytes {
			return w, fmt.Errorf("want a size in [0,%d], got %q", maxFileBytes, rest[0])
		}
		rest = rest[1:]
	}
	for _, a := range rest {
		if a == "twins" {
			w.twins = true
			continue
		}
		key, val, _ := strings.Cut(a, "=")
		var dst *int
		switch key {
		case "rewrite":
			dst = &w.rewrite
		case "delete":
			dst = &w.delete
		default:
			return w, fmt.Errorf("unknown option %q (want rewrite=<n>, delete=<n> or twins)", a)
		}
		k, err := strconv.Atoi(val)
		if err != nil || k < 0 || k > maxEditsPerCommand {
			return w, fmt.Errorf("%s: want a count in [0,%d], got %q", key, maxEditsPerCommand, val)
		}
		*dst = k
	}
	return w, nil
}

// editTargetsLocked picks up to n distinct live container-side files for
// the current command to edit: consecutive in path order, from a start
// that moves with the command number, so that successive commands edit
// different files. Host-pushed files are never chosen (the host's own
// writes are its to change), nor tombstones.
func (c *Container) editTargetsLocked(n int) []string {
	live := c.editable.Len()
	if n == 0 || live == 0 {
		return nil
	}
	n = min(n, live)
	start := (c.execSeq * 7919) % live
	out := make([]string, 0, n)
	for k := range n {
		out = append(out, c.editable.At((start+k)%live))
	}
	return out
}

// editable reports whether a command may edit the path whose state f is
// (nil: the path has none): a live file the host did not push.
func (f *remoteFile) editable() bool {
	return f != nil && !f.deleted && !f.pushed
}
