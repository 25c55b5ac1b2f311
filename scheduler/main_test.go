package scheduler_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if a test leaves a goroutine behind (a Waker not
// stopped, a SQLite handle not closed). The kill test's child process runs
// through here too but never returns from its test: it is SIGKILLed.
func TestMain(m *testing.M) {
	if os.Getenv(killEnvDB) != "" {
		os.Exit(m.Run()) // child: no leak check, it dies by signal anyway
	}
	goleak.VerifyTestMain(m)
}
