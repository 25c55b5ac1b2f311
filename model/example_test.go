package model_test

import (
	"fmt"
	"time"

	"github.com/syncsim/syncsim/model"
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
