// Package plant is the scheduler's planted-bug hook: test machinery that
// lets scheduler/planttest switch a deliberately wrong rule on in a Waker
// without an exported field or function in package scheduler.
package plant

// HandledTime, set by package scheduler at init, plants the handled-time
// alarm rule in a *scheduler.Waker.
var HandledTime func(waker any)

// NoSettle, set by package scheduler at init, makes a *scheduler.Waker
// settle nothing it handed over.
var NoSettle func(waker any)

// StaleRearm, set by package scheduler at init, makes a *scheduler.Waker
// re-arm after a firing from the listing it took right after the hand-over
// instead of listing the store again.
var StaleRearm func(waker any)
