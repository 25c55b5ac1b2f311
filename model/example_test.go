package model_test

import (
	"fmt"
	"time"

	"github.com/syncsim/syncsim/model"
	"github.com/syncsim/syncsim/scheduler"
)

// A wait-mode command whose pull failed, as the runtime's record tells it,
// leaves exactly one intent at attempt 1, initialDelay later.
func Example() {
	o := model.Options{InitialDelay: 2 * time.Second, MaxDelay: 30 * time.Second, MaxAttempts: 4}
	now := time.UnixMilli(10000)
	s, res, err := model.Empty().Exec(o, model.Exec{Backend: "sandbox", PullFailed: true}, now,
		[]model.StoreCall{{Op: "get", Backend: "sandbox"}, {Op: "schedule", Backend: "sandbox"}})
	fmt.Println(res.Status, err)
	for _, in := range s.Intents() {
		fmt.Println(in)
	}
	// Output:
	// pending <nil>
	// {backend sandbox attempt 1 notBefore 12000}
}

// The judge's settled set: an intent handed to a firing and stored
// unchanged after it needs no alarm until it changes.
func ExampleSettled() {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	exhausted := scheduler.Intent{Backend: "b0", Attempt: 5, NotBefore: t0}
	s := model.Settled{}.Settle([]scheduler.Intent{exhausted}, []scheduler.Intent{exhausted})
	fmt.Println(s.Has(exhausted))
	exhausted.Attempt = 1 // a new failure reset it: pending again
	fmt.Println(s.Has(exhausted))
	// Output:
	// true
	// false
}
