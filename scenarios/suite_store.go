package scenarios

import (
	"fmt"
	"sync"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim"
)

// storeName remembers the Go type of the first store a plugged-in factory
// opened, for reports.
type storeName struct {
	mu   sync.Mutex
	name string
}

func (n *storeName) set(s scheduler.Scheduler) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.name == "" {
		n.name = fmt.Sprintf("%T", s)
	}
}

func (n *storeName) get() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.name
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
