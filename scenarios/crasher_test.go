//go:build unix

package scenarios

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
)

// lockedStore is the SQLite intent store behind an exclusive lock on a file
// of its directory, taken at open, as bbolt or LevelDB take one: correct,
// since a crashed process loses its locks. Inside one process a simulated
// crash keeps the dropped handle's lock, so the reopen at the restart fails.
type lockedStore struct {
	*scheduler.SQLite
	lock *os.File
}

func openLocked(dir string) (*lockedStore, error) {
	f, err := os.OpenFile(filepath.Join(dir, "intents.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("intents.lock is held by another handle: %w", err)
	}
	db, err := scheduler.OpenSQLite(filepath.Join(dir, "intents.db"))
	if err != nil {
		f.Close()
		return nil, err
	}
	return &lockedStore{SQLite: db, lock: f}, nil
}

func (s *lockedStore) Close() error {
	err := s.SQLite.Close()
	s.lock.Close() // releases the lock
	return err
}

// crashingLockedStore releases at a simulated crash what the process's
// death would: the lock (and the database handle, whose acknowledged
// writes are already on disk).
type crashingLockedStore struct{ *lockedStore }

func (s crashingLockedStore) Crash() { _ = s.lockedStore.Close() }

func TestCrasherReleasesALockAtAHostCrash(t *testing.T) {
	run := func(crash bool) []string {
		rec := &fatalRecorder{TB: t}
		Check(rec, SuiteOptions{Seeds: 40, NewStore: func() sim.SchedulerFactory {
			return func(dir string) (scheduler.Scheduler, error) {
				s, err := openLocked(dir)
				if err != nil || !crash {
					return s, err
				}
				return crashingLockedStore{s}, nil
			}
		}})
		return rec.msgs
	}
	msgs := run(false)
	if len(msgs) != 1 || !strings.Contains(msgs[0], "PROPERTY  store-error") || !strings.Contains(msgs[0], "held by another handle") {
		t.Fatalf("without Crash the lock held by the dropped handle should fail the reopen, got %q", msgs)
	}
	if msgs := run(true); len(msgs) != 0 {
		t.Fatalf("with Crash the locking store failed:\n%s", msgs[0])
	}
}
