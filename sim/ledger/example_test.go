package ledger_test

import (
	"fmt"

	"github.com/syncsim/syncsim/sim/ledger"
)

// The driver keeps a Writes to draw rewrites and deletes from: each
// acknowledged host write is noted with its size and version, a delete
// forgets the path, and the next rewrite of a path takes its next version,
// whose content (HostContentSized of ContentKey) differs at the same size.
func ExampleWrites() {
	var acked ledger.Writes
	acked.AddSized(0, "/host/a", 32)
	acked.Add(0, "/host/b")
	acked.Remove(0, "/host/b")
	latest, _ := acked.Latest(0)
	v := acked.VersionOf(0, latest) + 1
	acked.AddVersion(0, latest, acked.SizeOf(0, latest), v)
	fmt.Println(acked.Acked(0), acked.VersionOf(0, "/host/a"))
	first := ledger.HostContentSized(ledger.ContentKey("/host/a", 0), 32)
	next := ledger.HostContentSized(ledger.ContentKey("/host/a", v), 32)
	fmt.Println(len(first) == len(next), first != next)
	// Output:
	// [/host/a] 1
	// true true
}
