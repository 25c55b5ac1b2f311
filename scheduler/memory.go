package scheduler

import (
	"context"
	"slices"
	"strings"
	"sync"
)

// Memory is an in-memory Scheduler and Lister, the Go counterpart of the
// reference test scheduler in SPEC 1.3: a map keyed by the bare backend id
// plus a log of every Schedule and Clear call.
//
// Memory holds no per-incarnation state (no handles, no goroutines, no
// contexts), so a simulator may keep one object across simulated host
// restarts and treat it as the host's durable store. Its zero value is not
// usable; call NewMemory.
type Memory struct {
	mu        sync.Mutex
	intents   map[string]Intent
	scheduled []Intent
	cleared   []string
}

var (
	_ Scheduler = (*Memory)(nil)
	_ Lister    = (*Memory)(nil)
)

// NewMemory returns an empty in-memory scheduler.
func NewMemory() *Memory {
	return &Memory{intents: make(map[string]Intent)}
}

// Get returns a clone of the intent stored for backend.
//
// NB: a cancelled context fails every method before it touches state, the
// way a real store's round trip would; callers that pass a live context
// never see an error from Memory.
func (m *Memory) Get(ctx context.Context, backend string) (Intent, bool, error) {
	if err := ctx.Err(); err != nil {
		return Intent{}, false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	in, ok := m.intents[backend]
	if !ok {
		return Intent{}, false, nil
	}
	return in.Clone(), true, nil
}

// Schedule stores a clone of intent under intent.Backend and appends another
// clone to the Scheduled log, so later changes to the caller's pointers
// cannot reach either.
func (m *Memory) Schedule(ctx context.Context, intent Intent) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.intents[intent.Backend] = intent.Clone()
	m.scheduled = append(m.scheduled, intent.Clone())
	return nil
}

// Clear deletes the intent for backend and records the call even when
// nothing was stored, as the reference test scheduler does.
func (m *Memory) Clear(ctx context.Context, backend string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.intents, backend)
	m.cleared = append(m.cleared, backend)
	return nil
}

// List returns clones of every stored intent ordered by backend id
// (bytewise, the order SQLite's BINARY collation also gives).
func (m *Memory) List(ctx context.Context) ([]Intent, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Intent, 0, len(m.intents))
	for _, in := range m.intents {
		out = append(out, in.Clone())
	}
	slices.SortFunc(out, func(a, b Intent) int { return strings.Compare(a.Backend, b.Backend) })
	return out, nil
}

// Scheduled returns clones of every intent passed to Schedule, in call order.
func (m *Memory) Scheduled() []Intent {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Intent, len(m.scheduled))
	for i, in := range m.scheduled {
		out[i] = in.Clone()
	}
	return out
}

// Cleared returns every backend passed to Clear, in call order.
func (m *Memory) Cleared() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.cleared)
}
