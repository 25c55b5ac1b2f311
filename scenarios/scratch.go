package scenarios

import (
	"os"
	"sync"
)

// A run's SQLite files go to a memory-backed filesystem when the machine
// has one (Linux's /dev/shm) and the user has not chosen a temporary
// directory with TMPDIR. The simulation's crash is a process crash: a host
// restart drops the store handles without Close, and the operating system
// still holds every write the store made, synced or not. So fsync can
// change nothing a run observes, and on a disk it is nearly all of a
// SQLite run's cost (a 150-seed all-SQLite sweep: 88.8 s on disk, 11.9 s
// on /dev/shm, with the same 4 s of CPU). Durability across power loss is
// outside the simulation's model; sqlitedb's own test pins
// synchronous=FULL, which is what it rests on.
var scratch = sync.OnceValue(func() string {
	if os.Getenv("TMPDIR") != "" {
		return ""
	}
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		return "/dev/shm"
	}
	return ""
})

// mkRunDir makes a directory private to one run, on the scratch
// filesystem when there is one, else in the default temporary directory.
func mkRunDir() (string, error) {
	if dir := scratch(); dir != "" {
		if d, err := os.MkdirTemp(dir, "syncsim-"); err == nil {
			return d, nil
		}
	}
	return os.MkdirTemp("", "syncsim-")
}
