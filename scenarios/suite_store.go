package scenarios

import (
	"fmt"
	"strings"
	"sync"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/workspace"
)

// storeName remembers the Go type of the first store each plugged-in
// factory opened, for reports: "T (SuiteOptions.NewStore)", "T
// (SuiteOptions.NewLocalStore)", or both joined by a comma.
type storeName struct {
	mu           sync.Mutex
	sched, local string
}

func (n *storeName) set(s scheduler.Scheduler) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.sched == "" {
		n.sched = fmt.Sprintf("%T", s)
	}
}

func (n *storeName) setLocal(s workspace.Store) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.local == "" {
		n.local = fmt.Sprintf("%T", s)
	}
}

// get is the description of the plugged-in stores ("" when none opened).
func (n *storeName) get() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	var parts []string
	if n.sched != "" {
		parts = append(parts, n.sched+" (SuiteOptions.NewStore)")
	}
	if n.local != "" {
		parts = append(parts, n.local+" (SuiteOptions.NewLocalStore)")
	}
	return strings.Join(parts, ", ")
}

// namedLocalFactory wraps a user's local-store factory so that reports name
// the store it opens.
func namedLocalFactory(f sim.StoreFactory, name *storeName) sim.StoreFactory {
	return func(dir string) (workspace.Store, error) {
		s, err := f(dir)
		if err == nil && s != nil {
			name.setLocal(s)
		}
		return s, err
	}
}

// checkedFactory wraps a user's factory: it names the store it opens and
// refuses one the simulated host cannot use, with the reason, instead of a
// violation deep in a run.
func checkedFactory(f sim.SchedulerFactory, name *storeName) sim.SchedulerFactory {
	return func(dir string) (scheduler.Scheduler, error) {
		s, err := f(dir)
		if err != nil {
			return s, err
		}
		if _, ok := s.(scheduler.Lister); !ok {
			if c, ok := s.(interface{ Close() error }); ok {
				c.Close()
			}
			return nil, fmt.Errorf("scenarios: the store SuiteOptions.NewStore opened (%T) does not implement scheduler.Lister: "+
				"the simulated host lists the intents to set its alarm; add List (schedulertest.Run checks it)", s)
		}
		name.set(s)
		return s, nil
	}
}
