package workspace

import (
	"testing"

	"go.uber.org/goleak"
)

// The workspace starts no goroutines; goleak proves no test leaks one.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
