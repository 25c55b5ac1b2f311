package scenarios

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/workspace"
)

// A user's local store goes into scenarios.Check through
// SuiteOptions.NewLocalStore, as an intent store does through NewStore:
// a fresh factory per run (every scenario, every shrink candidate), so a
// store that keeps its state in memory carries nothing from one run into
// the next, and the report names the store and the option that gave it.

// copyingStore is a correct local store written apart from the built-in
// ones' code paths: the memory store behind a wrapper that hands it copies
// of every content and hands copies back.
type copyingStore struct{ workspace.Store }

func (s copyingStore) WriteFile(backend, path string, content []byte, deleted bool) (int64, error) {
	return s.Store.WriteFile(backend, path, append([]byte(nil), content...), deleted)
}

func newCopyingLocalStore() sim.StoreFactory {
	m := copyingStore{workspace.NewMemoryStore()}
	return func(string) (workspace.Store, error) { return m, nil }
}

func TestCheckTakesALocalStore(t *testing.T) {
	var runs atomic.Int64
	rec := &fatalRecorder{TB: t}
	Check(rec, SuiteOptions{Seeds: 40, NewLocalStore: func() sim.StoreFactory {
		runs.Add(1)
		return newCopyingLocalStore()
	}})
	if len(rec.msgs) != 0 {
		t.Fatalf("a correct local store failed Check:\n%s", rec.msgs[0])
	}
	if got := runs.Load(); got != 40 {
		t.Errorf("NewLocalStore called %d times for 40 runs, want once per run", got)
	}
}

// Without NewLocalStore, one memory factory given as RunOptions.LocalStore
// for several runs carries the first run's files into the second, which
// then fails at its first write; with it, both runs pass.
func TestNewLocalStoreIsFreshPerRun(t *testing.T) {
	s := FromSeed(1, MemoryConfig)
	shared := RunOptions{LocalStore: sim.MemoryStore()}
	fresh := RunOptions{NewLocalStore: sim.MemoryStore}
	for i := range 2 {
		if r := mustRunWith(t, s, fresh); r.Violation != nil {
			t.Fatalf("run %d with NewLocalStore: %v", i+1, r.Violation)
		}
	}
	if r := mustRunWith(t, s, shared); r.Violation != nil {
		t.Fatalf("first run with a shared LocalStore: %v", r.Violation)
	}
	if r := mustRunWith(t, s, shared); r.Violation == nil {
		t.Fatal("a second run on the first run's local store passed: the leak NewLocalStore prevents is not there to see")
	}
}

// A broken local store plugged in through NewLocalStore is reported by
// Check, shrunk with the same store, naming it and the option.
func TestCheckReportsABrokenLocalStore(t *testing.T) {
	rec := &fatalRecorder{TB: t}
	Check(rec, SuiteOptions{NewLocalStore: func() sim.StoreFactory {
		m := workspace.NewMemoryStore()
		return func(string) (workspace.Store, error) { return dropsHostWrites{m}, nil }
	}})
	if len(rec.msgs) != 1 {
		t.Fatalf("Check reported %d times, want once: %q", len(rec.msgs), rec.msgs)
	}
	msg := rec.msgs[0]
	for _, want := range []string{"STORE     scenarios.dropsHostWrites (SuiteOptions.NewLocalStore)\n", "shrunk from"} {
		if !strings.Contains(msg, want) {
			t.Errorf("report lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "syncsim replay") {
		t.Errorf("the report offers syncsim replay, which cannot open the plugged-in store:\n%s", msg)
	}
}

func mustRunWith(t *testing.T, s Scenario, o RunOptions) Result {
	t.Helper()
	r, err := Run(s, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// mapHoldingStore is a correct local store handed out as a value whose
// type cannot be compared (it holds a map). The host once compared the
// store it reopened with the old one using ==, which panics on such a
// value: a no-panic violation (seed 3) blamed on a correct store.
type mapHoldingStore struct {
	workspace.Store
	writes map[string]int
}

func (s mapHoldingStore) WriteFile(backend, path string, content []byte, deleted bool) (int64, error) {
	s.writes[backend]++
	return s.Store.WriteFile(backend, path, content, deleted)
}

func TestUncomparableLocalStorePasses(t *testing.T) {
	rec := &fatalRecorder{TB: t}
	Check(rec, SuiteOptions{Seeds: 60, NewLocalStore: func() sim.StoreFactory {
		m := mapHoldingStore{workspace.NewMemoryStore(), map[string]int{}}
		return func(string) (workspace.Store, error) { return m, nil }
	}})
	if len(rec.msgs) != 0 {
		t.Fatalf("a correct local store of an uncomparable type failed Check:\n%s", rec.msgs[0])
	}
}
