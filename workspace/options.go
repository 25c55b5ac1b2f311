package workspace

import (
	"errors"
	"fmt"
	"github.com/syncsim/syncsim/workspace/internal/plant"
	"strings"
	"time"
)

// Defaults of SPEC 2.1.
const (
	DefaultInitialDelay = 1000 * time.Millisecond
	DefaultMaxDelay     = 60000 * time.Millisecond
	DefaultMaxAttempts  = 5
)

// maxRetryOption is Number.MAX_SAFE_INTEGER (2^53−1), the SPEC 2.2 bound.
const maxRetryOption = 1<<53 - 1

// New validates opts and returns a Workspace. Nothing is connected yet: the
// first operation on a backend connects to it.
//
// Retry validation follows SPEC 2.2 adapted to Go. The TypeScript option is
// "nullish means default"; a Go struct has no nullish, so a zero field means
// "not supplied" and takes the default. Consequently an explicit 0, which
// the TypeScript rejects, is accepted here as the default; negatives,
// fractional milliseconds and values above 2^53−1 ms (or attempts) are
// rejected with the TypeScript's message, checked in the order
// initialDelayMs, maxDelayMs, maxAttempts. There is no cross-validation:
// MaxDelay < InitialDelay is accepted and every delay is then MaxDelay.
func New(opts Options) (*Workspace, error) { return newWorkspace(opts, 0) }

// init hands workspace/planttest its way to build a workspace with bugs
// planted, without an exported field or function here.
func init() {
	plant.New = func(opts any, bugs plant.Set) (any, error) {
		o, ok := opts.(Options)
		if !ok {
			panic("workspace: plant.New wants a workspace.Options")
		}
		return newWorkspace(o, bugs)
	}
}

// newWorkspace is New with the planted bugs mut (zero: the correct code),
// which only syncsim's harness sets, through workspace/planttest.
func newWorkspace(opts Options, mut plant.Set) (*Workspace, error) {
	initial, maxDelay, attempts, err := resolveRetry(opts.Retry)
	if err != nil {
		return nil, err
	}
	push, err := resolvePushBudget(opts.PushBatch)
	if err != nil {
		return nil, err
	}
	if opts.Clock == nil {
		return nil, errors.New("workspace: Options.Clock is required (production passes clock.New())")
	}
	if opts.Store == nil {
		return nil, errors.New("workspace: Options.Store is required")
	}
	if len(opts.Backends) == 0 {
		return nil, errors.New("workspace: Options.Backends is empty; at least one backend is required")
	}
	w := &Workspace{
		clk:           opts.Clock,
		store:         opts.Store,
		sched:         opts.Scheduler,
		parker:        opts.Parker,
		mut:           mut,
		initialDelay:  initial,
		maxDelay:      maxDelay,
		maxAttempts:   attempts,
		pushBudget:    push,
		backends:      make(map[string]Backend, len(opts.Backends)),
		tails:         make(map[string]*fifoEntry),
		handles:       make(map[string]Handle),
		connecting:    make(map[string]*connectCall),
		disconnecting: make(map[string]Gate),
	}
	if w.parker == nil {
		w.parker = ChanParker{}
	}
	for i, b := range opts.Backends {
		switch {
		case b.ID == "":
			return nil, fmt.Errorf("workspace: Options.Backends[%d] has an empty id", i)
		case b.Backend == nil:
			return nil, fmt.Errorf("workspace: backend %s has a nil Backend", jsonString(b.ID))
		}
		if _, dup := w.backends[b.ID]; dup {
			return nil, fmt.Errorf("workspace: duplicate backend id %s", jsonString(b.ID))
		}
		w.backends[b.ID] = b.Backend
		w.backendIDs = append(w.backendIDs, b.ID)
	}
	return w, nil
}

// resolvePushBudget fills a zero field of b from DefaultPushBudget and
// rejects a negative one.
func resolvePushBudget(b PushBudget) (PushBudget, error) {
	switch {
	case b.MaxEntries < 0:
		return PushBudget{}, fmt.Errorf("workspace: Options.PushBatch.MaxEntries is %d; want a positive count (0 takes %d)", b.MaxEntries, DefaultPushBudget.MaxEntries)
	case b.MaxBytes < 0:
		return PushBudget{}, fmt.Errorf("workspace: Options.PushBatch.MaxBytes is %d; want a positive size (0 takes %d)", b.MaxBytes, DefaultPushBudget.MaxBytes)
	}
	if b.MaxEntries == 0 {
		b.MaxEntries = DefaultPushBudget.MaxEntries
	}
	if b.MaxBytes == 0 {
		b.MaxBytes = DefaultPushBudget.MaxBytes
	}
	return b, nil
}

func resolveRetry(r RetryOptions) (initial, maxDelay time.Duration, attempts int, err error) {
	initial, maxDelay, attempts = r.InitialDelay, r.MaxDelay, r.MaxAttempts
	if initial == 0 {
		initial = DefaultInitialDelay
	}
	if maxDelay == 0 {
		maxDelay = DefaultMaxDelay
	}
	if attempts == 0 {
		attempts = DefaultMaxAttempts
	}
	switch {
	case !positiveWholeMillis(initial):
		return 0, 0, 0, retryOptionError("initialDelayMs")
	case !positiveWholeMillis(maxDelay):
		return 0, 0, 0, retryOptionError("maxDelayMs")
	case attempts <= 0 || int64(attempts) > maxRetryOption:
		return 0, 0, 0, retryOptionError("maxAttempts")
	}
	return initial, maxDelay, attempts, nil
}

// positiveWholeMillis is Number.isSafeInteger(ms) && ms > 0 for a Duration.
// NB: a time.Duration tops out near 9.2e12 ms, far below 2^53−1 ms, so the
// upper bound can never fail; it is kept to state the contract.
func positiveWholeMillis(d time.Duration) bool {
	return d > 0 && d%time.Millisecond == 0 && d/time.Millisecond <= maxRetryOption
}

func retryOptionError(name string) error {
	return fmt.Errorf("Workspace retry.%s must be a positive integer", name)
}

// resolveBackend maps a caller's id to a registered backend id: "" is the
// default (first registered) backend; an unknown id is an error naming the
// configured ones (SPEC 5.1 #resolveBackendId).
func (w *Workspace) resolveBackend(id string) (string, error) {
	if id == "" {
		return w.backendIDs[0], nil
	}
	if _, ok := w.backends[id]; ok {
		return id, nil
	}
	quoted := make([]string, len(w.backendIDs))
	for i, b := range w.backendIDs {
		quoted[i] = jsonString(b)
	}
	return "", fmt.Errorf("Workspace: no backend with id %s. Configured backends: %s.",
		jsonString(id), strings.Join(quoted, ", "))
}
