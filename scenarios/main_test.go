package scenarios

import (
	"testing"

	"go.uber.org/goleak"
)

// Every simulated run ends with all its actor goroutines unwound; goleak
// proves no run leaves one behind.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
