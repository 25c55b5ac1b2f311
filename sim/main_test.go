package sim

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any goroutine outlives the tests: actors that
// finished, were killed or were unwound after a failed Run must all be gone.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
