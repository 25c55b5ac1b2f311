package scheduler_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/scheduler/schedulertest"
)

func TestMemoryConformance(t *testing.T) {
	schedulertest.Run(t, func() (schedulertest.Instance, error) {
		m := scheduler.NewMemory()
		// Memory is durable for a simulator that keeps the object across
		// host restarts: reopening is handing back the same object.
		return schedulertest.Instance{
			Scheduler: m,
			Reopen:    func() (scheduler.Scheduler, error) { return m, nil },
		}, nil
	}, schedulertest.Options{})
}

func TestSQLiteConformance(t *testing.T) {
	dir := t.TempDir()
	n := 0
	schedulertest.Run(t, func() (schedulertest.Instance, error) {
		n++
		path := filepath.Join(dir, fmt.Sprintf("conformance-%d.db", n))
		s, err := scheduler.OpenSQLite(path)
		if err != nil {
			return schedulertest.Instance{}, err
		}
		current := s
		return schedulertest.Instance{
			Scheduler: s,
			Reopen: func() (scheduler.Scheduler, error) {
				if err := current.Close(); err != nil {
					return nil, err
				}
				next, err := scheduler.OpenSQLite(path)
				if err != nil {
					return nil, err
				}
				current = next
				return next, nil
			},
			Close: func() error { return current.Close() },
		}, nil
	}, schedulertest.Options{})
}
