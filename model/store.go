package model

import "fmt"

// StoreCall is one scheduler call as the fault-injecting store wrapper
// recorded it. The model consumes an operation's calls in order: each time it
// decides the library must call the store, it takes the next recorded call,
// checks it is the call it expected and learns whether the store refused it.
type StoreCall struct {
	Op      string // "get", "schedule" or "clear"
	Backend string
	Failed  bool
}

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
	if c.next >= len(c.list) {
		return false, fmt.Errorf("model expected store call %s %s, SUT made none", op, backend)
	}
	got := c.list[c.next]
	c.next++
	if got.Op != op || got.Backend != backend {
		return false, fmt.Errorf("model expected store call %s %s, SUT made %s", op, backend, got)
	}
	return got.Failed, nil
}

// done reports calls the SUT made beyond what the model expected.
func (c *calls) done() error {
	if c.next < len(c.list) {
		return fmt.Errorf("SUT made unexpected store calls %v", c.list[c.next:])
	}
	return nil
}
