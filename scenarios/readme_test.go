package scenarios_test

import (
	"path/filepath"
	"testing"

	"github.com/syncsim/syncsim/scenarios"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/workspace"
)

// TestMyStoreInTheWholeSystem is the README's whole-system snippet,
// compiled and run here with the SQLite store standing in for the reader's
// own; the README test in cmd/syncsim checks that the README shows this
// function verbatim. The simulated host closes each store it opens.
func TestMyStoreInTheWholeSystem(t *testing.T) {
	scenarios.Check(t, scenarios.SuiteOptions{
		NewStore: func() sim.SchedulerFactory { // once per run
			return func(dir string) (scheduler.Scheduler, error) { // at every host start
				return scheduler.OpenSQLite(filepath.Join(dir, "intents.db")) // your store
			}
		},
	})
}

// TestMyLocalStoreInTheWholeSystem is docs/plugging-in-a-store.md's
// local-store snippet, compiled and run here with the SQLite local store
// standing in for the reader's own (cmd/syncsim checks the page shows it
// verbatim). The host drops the handle at a crash and closes it at a
// clean restart and at the end of the run.
func TestMyLocalStoreInTheWholeSystem(t *testing.T) {
	scenarios.Check(t, scenarios.SuiteOptions{
		NewLocalStore: func() sim.StoreFactory { // once per run
			return func(dir string) (workspace.Store, error) { // at every host start
				return workspace.OpenSQLiteStore(filepath.Join(dir, "local.db")) // your store
			}
		},
	})
}
