// Package planttest is test machinery, not API: it plants deliberately
// wrong alarm rules in a scheduler.Waker, so that syncsim's harness can
// prove it finds them in the production code path (syncsim run -bug
// alarm-handled-time). Production code never imports it.
package planttest

import (
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/scheduler/internal/plant"
)

// HandledTime plants this project's own first alarm rule in w, which
// syncsim found wrong: after a firing at T every intent stored and due by T
// counts as handled, whether it was handed over or not, so one built before
// T and stored after the hand-over is stranded. Call it before the first
// Rearm.
func HandledTime(w *scheduler.Waker) { plant.HandledTime(w) }

// NoSettle makes w forget what it handed over: an intent the retry left as
// it was (an exhausted one) stays due, so the alarm fires for it again and
// again, retrying an intent the host has given up on. Call it before the
// first Rearm.
func NoSettle(w *scheduler.Waker) { plant.NoSettle(w) }

// StaleRearm makes w re-arm after a firing from the listing it took right
// after the hand-over, instead of listing the store again as it re-arms: a
// read acted on after the store may have changed. A request that stores
// an intent in between and re-arms, which is a no-op while the firing is in
// flight (the firing itself re-arms when it ends), has its intent
// stranded until something else re-arms. Only a switch right after that
// listing returns opens the window. Call it before the first Rearm.
func StaleRearm(w *scheduler.Waker) { plant.StaleRearm(w) }
