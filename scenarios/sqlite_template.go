package scenarios

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// A SQLite seed's first host start opens two store files that do not exist
// yet, and SQLite's creation of a file is the most expensive call a store
// makes: the empty file is switched to WAL through a rollback journal, the
// WAL and its index are created, the schema's CREATE statements run in a
// write transaction, and the first Close checkpoints it all back. Opening a
// file that exists costs a fraction of that. Every new file of one store
// holds the same bytes, so the harness makes one per process, with the
// store's own open and Close (its real migration from an empty file, so a
// store that creates a wrong schema still fails every seed), and writes
// those bytes into each run's fresh directory before the first open. The
// store then opens the file as it does at every restart.
//
// Nothing the run observes changes: the store sees an existing file of its
// schema version, which is what its own creation left. The store code is
// untouched; a production user's store creates its file once in its life,
// and gains nothing from an image of it. A template that cannot be made
// (no temporary directory, a store whose Close leaves a WAL behind) is no
// error: the store creates the file itself, as it always could.

// storeTemplate is the bytes of one store's new file, made at first use.
type storeTemplate struct {
	make  func(path string) (io.Closer, error)
	once  sync.Once
	bytes []byte // nil: no template; the store creates its file
}

var (
	intentStoreTemplate = &storeTemplate{make: func(p string) (io.Closer, error) { return scheduler.OpenSQLite(p) }}
	localStoreTemplate  = &storeTemplate{make: func(p string) (io.Closer, error) { return workspace.OpenSQLiteStore(p) }}
)

// image returns the template's bytes, making them on the first call; nil
// when none could be made.
func (t *storeTemplate) image() []byte {
	t.once.Do(func() {
		b, err := makeImage(t.make)
		if err == nil {
			t.bytes = b
		}
	})
	return t.bytes
}

// makeImage opens a new file with open in a directory of its own, closes
// it, and returns what is left: the file alone, or an error when SQLite
// left anything beside it (a WAL, a journal), which the bytes would miss.
func makeImage(open func(path string) (io.Closer, error)) ([]byte, error) {
	dir, err := mkRunDir()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "template.db")
	c, err := open(path)
	if err != nil {
		return nil, err
	}
	if err := c.Close(); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	if len(entries) != 1 {
		return nil, fmt.Errorf("a closed new store left %d files, not 1", len(entries))
	}
	return os.ReadFile(path)
}

// seed writes the template as path when nothing is there yet: not the
// file, and no WAL or journal of an earlier one (SQLite would replay it
// into the template's file). A restart finds the file and keeps it.
func (t *storeTemplate) seed(path string) error {
	b := t.image()
	if b == nil {
		return nil
	}
	for _, p := range []string{path, path + "-wal", path + "-journal"} {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			return nil // there, or unknown: leave the file to the store
		}
	}
	// O_EXCL: a file that appeared since is the store's, not ours.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil
		}
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return errors.Join(fmt.Errorf("seed %s from the store template: %w", path, err), os.Remove(path))
	}
	return nil
}

// openIntentStore opens the run's SQLite intent store at path, seeding a
// new file from the template.
func openIntentStore(path string) (*scheduler.SQLite, error) {
	if err := intentStoreTemplate.seed(path); err != nil {
		return nil, err
	}
	return scheduler.OpenSQLite(path)
}

// openLocalStore opens the run's SQLite local store at path, seeding a new
// file from the template.
func openLocalStore(path string) (*workspace.SQLiteStore, error) {
	if err := localStoreTemplate.seed(path); err != nil {
		return nil, err
	}
	return workspace.OpenSQLiteStore(path)
}
