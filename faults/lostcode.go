package faults

import (
	"errors"
	"math/rand/v2"

	"github.com/syncsim/syncsim/workspace"
)

// Backend-raised EEXEC_LOST. SPEC 4 says what the retry does with an
// EEXEC_LOST failure of its pull on an intent without a runtime id (an
// ordinary, counted failure) and on one with (lost, cleared, whatever
// runtime answered), and SPEC 5.2 step 1 what a reconnect does with one.
// The workspace's own fence raises EEXEC_LOST only when the intent names
// a runtime and the runtime changed, so with the fence as its only source
// neither "no runtime id" nor "same runtime" is ever met. The container's
// runtime raises it too: its assertExecutionRuntime (SPEC 7) fails a call
// for an execution whose runtime was replaced. So a drawn share of the
// ordinary fetch failures (RPCError) arrive as that error: the
// workspace's ExecutionLostError with code EEXEC_LOST and the runtime's
// SPEC 7 message, whose cause is the injected error (errors.Is still finds
// ErrInjected, and the class stays "not transport"). Call.Lost records it
// for the judge, which never asks the workspace.

// lostCodeOneIn: one drawn RPCError in this many carries EEXEC_LOST.
const lostCodeOneIn = 3

// lostCodeLabel is the execution label the runtime names.
const lostCodeLabel = "fetchChanges"

// SetLostCode makes a share of this container's drawn (not armed) fetch
// failures carry code EEXEC_LOST, drawn from r, a stream of its own so no
// other fault draw moves; nil (the default) never does.
func (c *Container) SetLostCode(r *rand.Rand) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lostCode = r
}

// lostCodedLocked returns err as the runtime's EEXEC_LOST when the draw
// says so, else err.
func (c *Container) lostCodedLocked(err error, armed bool) error {
	if armed || c.lostCode == nil || c.lostCode.IntN(lostCodeOneIn) != 0 {
		return err
	}
	return &workspace.ExecutionLostError{
		Code:  workspace.CodeExecutionLost,
		Msg:   `Execution "` + lostCodeLabel + `" was lost when its container runtime was replaced. ` + err.Error(),
		Cause: err,
	}
}

// lostCoded reports whether err is an EEXEC_LOST the outermost error
// carries (the TypeScript reads err.code there).
func lostCoded(err error) bool {
	var le *workspace.ExecutionLostError
	return errors.As(err, &le) && le == err && le.Code == workspace.CodeExecutionLost
}
