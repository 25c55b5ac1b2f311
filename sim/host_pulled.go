package sim

import (
	"fmt"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/model"
)

// preCheckText is SPEC 4's fixed error of the pre-check branch.
const preCheckText = "pending sync retry attempts exhausted"

// judgePulled is the other half of the model's "expected no runtime call":
// a retry the model says must pull (its intent passed SPEC 4's pre-check,
// attempt <= maxAttempts, which only a host-planted intent at exactly the
// limit tells apart from the pre-check) reaches the runtime, and an
// exhaustion after a pull carries the pull's error, never the pre-check's
// fixed text. Every pull asks the handle something the runtime records
// (its sync surface or its runtime id), except one whose connect it shared
// with another actor and saw fail (SPEC 5.4), so an operation during which
// another actor connected is not held to the first half.
func (h *Host) judgePulled(f finished, calls []faults.Call, want model.RetryResult) *Violation {
	if !want.Pulled || want.Rejected || h.hit[f.actor] {
		return nil
	}
	if want.Status == "exhausted" && f.retry.Error == preCheckText {
		return h.fail("model", fmt.Sprintf("%s: expected an exhaustion after a pull, with the pull's error (SPEC 4: attempt %d passes the pre-check, %d <= maxAttempts %d), got the pre-check's %q",
			f.actor, want.Attempt, want.Attempt, h.opts.MaxAttempts, preCheckText))
	}
	if !hasRuntimeCall(calls) && !h.otherConnect(f) {
		return h.fail("model", fmt.Sprintf("%s: expected a pull (status %s, the model: the intent passes SPEC 4's pre-check), got no runtime call", f.actor, want.Status))
	}
	return nil
}

// hasRuntimeCall reports whether calls hold one the runtime recorded (not
// a local-store fault the judge merged in).
func hasRuntimeCall(calls []faults.Call) bool {
	for i := range calls {
		if calls[i].Op != faults.OpLocalStore {
			return true
		}
	}
	return false
}
