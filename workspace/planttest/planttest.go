// Package planttest is test machinery, not API: it builds a workspace with
// deliberately wrong variants of the retry logic planted, so that syncsim's
// harness can prove it finds each class of bug (syncsim run -bug NAME).
// Production code never imports it; workspace.New always builds the
// correct code.
package planttest

import (
	"github.com/syncsim/syncsim/workspace"
	"github.com/syncsim/syncsim/workspace/internal/plant"
)

// Set is a set of planted bugs (zero: none); Has reports one.
type Set = plant.Set

// The planted bugs, one bit each (see the internal package's doc for what
// each one breaks).
const (
	ZeroBasedAttempts     = plant.ZeroBasedAttempts
	ExhaustedClears       = plant.ExhaustedClears
	PrecheckGE            = plant.PrecheckGE
	NoRuntimeFence        = plant.NoRuntimeFence
	NoReconcile           = plant.NoReconcile
	CoalesceResetsAttempt = plant.CoalesceResetsAttempt
	ProgressAsFailure     = plant.ProgressAsFailure
	FIFOOverlap           = plant.FIFOOverlap
	CursorBeforeApply     = plant.CursorBeforeApply
	NoWiden               = plant.NoWiden
	NoRedaction           = plant.NoRedaction
	MutexAcrossCall       = plant.MutexAcrossCall
)

// New is workspace.New with bugs planted.
func New(opts workspace.Options, bugs Set) (*workspace.Workspace, error) {
	w, err := plant.New(opts, bugs)
	ws, _ := w.(*workspace.Workspace)
	return ws, err
}
