package model

import (
	"fmt"
	"time"

	"github.com/syncsim/syncsim/scheduler"
)

// StoreCall is one scheduler call as the fault-injecting store wrapper
// recorded it. The model consumes an operation's calls in order: each time it
// decides the library must call the store, it takes the next recorded call,
// checks it is the call it expected and learns whether the store refused it.
type StoreCall struct {
	Op      string // "get", "schedule" or "clear"
	Backend string
	Failed  bool
	// At is when the call was made (zero: the step's time). A scheduled
	// intent's NotBefore counts from it: the library builds the intent just
	// before the call, and time may move between the start of an operation
	// and its store write when other actors advance it.
	At time.Time
}

// String renders the call for a diff: "schedule b0", with " (failed)".
func (c StoreCall) String() string {
	s := c.Op + " " + c.Backend
	if c.Failed {
		s += " (failed)"
	}
	return s
}

// calls is a cursor over one operation's recorded store calls.
type calls struct {
	list []StoreCall
	next int
}

// take returns whether the expected call failed, or an error when the SUT
// made a different call (or none) where the model expected this one.
func (c *calls) take(op, backend string) (failed bool, err error) {
	got, err := c.takeCall(op, backend)
	return got.Failed, err
}

// takeCall is take returning the whole recorded call.
func (c *calls) takeCall(op, backend string) (StoreCall, error) {
	if c.next >= len(c.list) {
		return StoreCall{}, fmt.Errorf("expected store call %s %s (the model), got none", op, backend)
	}
	got := c.list[c.next]
	c.next++
	if got.Op != op || got.Backend != backend {
		return StoreCall{}, fmt.Errorf("expected store call %s %s (the model), got %s", op, backend, got)
	}
	return got, nil
}

// schedule takes the expected schedule call and builds the intent it must
// carry, stamped at the call's time (or now when the record has none).
func (c *calls) schedule(o Options, backend string, attempt int, runtime *string, target *scheduler.Cursor, now time.Time) (scheduler.Intent, bool, error) {
	got, err := c.takeCall("schedule", backend)
	if err != nil {
		return scheduler.Intent{}, false, err
	}
	if !got.At.IsZero() {
		now = got.At
	}
	return o.intent(backend, attempt, runtime, target, now), got.Failed, nil
}

// done reports calls the SUT made beyond what the model expected.
func (c *calls) done() error {
	if c.next < len(c.list) {
		return fmt.Errorf("expected store calls %v (the model), got %v", c.list[:c.next], c.list)
	}
	return nil
}
