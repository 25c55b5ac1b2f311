package sim

import (
	"fmt"
	"strings"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/model"
)

// lostCombined is what SPEC 5.2 step 1 puts between the fence's message
// and the first pass's transport failure.
const lostCombined = " Original transport failure: "

// judgeLostForm is property lost-message (SPEC 5.2 step 1): a retry the
// model says is lost, whose first failed call (the harness's record, not
// the workspace's) was a transport failure, lost on its second pass, and
// the EEXEC_LOST it reports then carries the first pass's failure:
// "<lost message> Original transport failure: <first message>". The fence
// only fails on a pass's handle, and a fence failure is not retried, so a
// transport failure before it is always the first pass's. A first pass
// that shared another actor's failed connect leaves no failed call of the
// actor's own and is not held to it (otherConnect is not needed: no own
// failure, no check). The fence's message sits far inside the 512-unit cut
// of SPEC 1.4, but a lost error the runtime raised itself may not: a
// message cut at the limit (511 or 512 units) is not held to the suffix
// (falsealarm-lost-message-cut.txt).
func (h *Host) judgeLostForm(f finished, calls []faults.Call, want model.RetryResult) *Violation {
	if want.Status != "lost" || h.hit[f.actor] {
		return nil
	}
	i := firstFailure(calls, len(calls))
	if i < 0 || !calls[i].Transport || strings.Contains(f.retry.Error, lostCombined) {
		return nil
	}
	if utf16Units(f.retry.Error) >= maxResultErrorUnits-1 {
		return nil // cut by SPEC 1.4's rule, maybe before the suffix
	}
	return h.fail("lost-message", fmt.Sprintf("%s: expected a lost error that names the first pass's transport failure (#%d %s; SPEC 5.2: \"<lost message>%s<first message>\"), got %q",
		f.actor, calls[i].Seq, calls[i].Op, lostCombined, f.retry.Error))
}

// utf16Units is the length of s in UTF-16 code units, SPEC 1.4's measure.
func utf16Units(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}
