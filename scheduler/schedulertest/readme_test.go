package schedulertest_test

import (
	"path/filepath"
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/scheduler/schedulertest"
)

// TestMyStore is the README's conformance snippet, compiled and run here
// with the SQLite store standing in for the reader's own; the README test
// in cmd/syncsim checks that the README shows this function verbatim.
// Every store it opens is closed: the first by Reopen, the last by Close.
func TestMyStore(t *testing.T) {
	schedulertest.Run(t, func() (schedulertest.Instance, error) {
		path := filepath.Join(t.TempDir(), "intents.db")
		s, err := scheduler.OpenSQLite(path) // your store's constructor
		if err != nil {
			return schedulertest.Instance{}, err
		}
		return schedulertest.Instance{
			Scheduler: s,
			// Reopen declares the store durable; omit it if it is not.
			Reopen: func() (scheduler.Scheduler, error) {
				if err := s.Close(); err != nil {
					return nil, err
				}
				next, err := scheduler.OpenSQLite(path)
				if err != nil {
					return nil, err
				}
				s = next
				return s, nil
			},
			Close: func() error { return s.Close() }, // the last store opened
		}, nil
	}, schedulertest.Options{})
}
