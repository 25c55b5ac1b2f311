package faults

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/syncsim/syncsim/scheduler"
)

// Scheduler wraps a scheduler.Scheduler with blocking points, store faults
// and a record. Each call blocks first (point "store.<op>"), then may fail
// with an InjectedError of kind store-get, store-schedule or store-clear
// BEFORE the inner store is touched, so a failed call never half-writes.
// With ReturnHooks each call blocks again as it returns, List included.
type Scheduler struct {
	inner   scheduler.Scheduler
	hooks   Hooks
	rets    ReturnHooks // hooks' Return side, nil when it has none
	rng     *rand.Rand
	profile *Profile
	secrets *Secrets // nil: injected errors carry no credential

	now func() time.Time // optional: stamps each call's entry time

	mu       sync.Mutex
	faultsOn bool
	calls    []StoreCall
}

var (
	_ scheduler.Scheduler = (*Scheduler)(nil)
	_ scheduler.Lister    = (*Scheduler)(nil)
)

// ErrNoList is returned by List when the inner store is not a Lister.
var ErrNoList = errors.New("faults: inner scheduler does not implement scheduler.Lister")

// StoreOp names a scheduler store call.
type StoreOp string

// The store ops.
const (
	StoreOpGet      StoreOp = "get"
	StoreOpSchedule StoreOp = "schedule"
	StoreOpClear    StoreOp = "clear"
	// StoreOpList is List: a blocking point on both sides like the others,
	// but never a fault and never recorded (see List).
	StoreOpList StoreOp = "list"
)

// StoreCall is one recorded scheduler call.
type StoreCall struct {
	Seq     int
	Actor   string
	Op      StoreOp
	Backend string
	// Intent is the intent passed to Schedule, or the one Get found.
	Intent *scheduler.Intent
	Found  bool // Get found an intent
	Fault  Kind // the injected kind, NoFault when none
	Err    string
	// Uninjected: the inner store returned Err by itself; it does not wrap
	// ErrInjected. A store that fails on its own is a bug of the store (or
	// of how it is called), not an environment fact: the host reports it as
	// the store-error property instead of letting the model read it as a
	// fault the workspace had to handle.
	Uninjected bool
	// At is the clock reading when the call was made, before its blocking
	// point (zero without SetClock). An intent passed to Schedule was built
	// at this instant: the workspace does not block between the two.
	At time.Time
}

// String renders the call on one stable line (see AppendText).
func (sc StoreCall) String() string { return string(sc.AppendText(make([]byte, 0, 128))) }

// NewScheduler wraps inner. Faults are drawn from rng (owned by the wrapper
// from now on) using *profile, read at each call; nil means Off. Faults
// start on.
func NewScheduler(inner scheduler.Scheduler, hooks Hooks, rng *rand.Rand, profile *Profile) *Scheduler {
	if hooks == nil {
		hooks = NoHooks{}
	}
	return &Scheduler{inner: inner, hooks: hooks, rets: returnsOf(hooks), rng: rng, profile: profile, faultsOn: true}
}

// SetClock makes every recorded call carry the time it was made (At).
func (s *Scheduler) SetClock(now func() time.Time) { s.now = now }

// Inner returns the wrapped store.
func (s *Scheduler) Inner() scheduler.Scheduler { return s.inner }

// PlantSecrets makes every error the wrapper injects from now on carry a
// fake credential from p (see Secrets); nil stops it.
func (s *Scheduler) PlantSecrets(p *Secrets) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.secrets = p
}

// SetFaults turns store fault draws on or off.
func (s *Scheduler) SetFaults(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faultsOn = on
}

// before blocks, names the actor and draws the fault for op. It returns the
// injected error, if any, and a call to complete with after.
func (s *Scheduler) before(op StoreOp, k Kind, backend string) (StoreCall, error) {
	var at time.Time
	if s.now != nil {
		at = s.now()
	}
	s.hooks.Block(storePoint(op))
	call := StoreCall{Actor: s.hooks.Actor(), Op: op, Backend: backend, At: at}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.faultsOn && s.profile.draw(s.rng, k) {
		err := s.secrets.injected(k, fmt.Sprintf("%s %s: %s", op, backend, msgStore))
		call.Fault = k
		s.appendLocked(&call, err)
		return call, err
	}
	return call, nil
}

// after records call with the inner store's outcome. An inner error is
// told apart by its chain: one that wraps ErrInjected was planted by a
// harness layer below this wrapper (its kind is kept), any other one the
// store returned by itself.
func (s *Scheduler) after(call StoreCall, err error) {
	if err != nil {
		if errors.Is(err, ErrInjected) {
			call.Fault = faultOf(err)
		} else {
			call.Uninjected = true
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.appendLocked(&call, err)
}

// returned is the blocking point after a call of op returns (ReturnHooks).
func (s *Scheduler) returned(op StoreOp) {
	if s.rets != nil {
		s.rets.Return(storePoint(op))
	}
}

func (s *Scheduler) appendLocked(call *StoreCall, err error) {
	if err != nil {
		call.Err = PublicText(err)
	}
	call.Seq = len(s.calls) + 1
	if s.calls == nil {
		// A default run makes a few dozen store calls: one allocation
		// instead of a doubling series.
		s.calls = make([]StoreCall, 0, 32)
	}
	s.calls = append(s.calls, *call)
}

// Get reads the intent for backend (fault: store-get).
func (s *Scheduler) Get(ctx context.Context, backend string) (scheduler.Intent, bool, error) {
	call, err := s.before(StoreOpGet, StoreGet, backend)
	defer s.returned(StoreOpGet)
	if err != nil {
		return scheduler.Intent{}, false, err
	}
	in, ok, err := s.inner.Get(ctx, backend)
	call.Found = ok
	out := CopyIntent(in)
	if ok {
		call.Intent = scheduler.Ptr(CopyIntent(in))
	}
	poisonIntent(&in) // alias.go: the store's answer, not what the caller gets
	s.after(call, err)
	return out, ok, err
}

// Schedule upserts intent (fault: store-schedule).
func (s *Scheduler) Schedule(ctx context.Context, intent scheduler.Intent) error {
	call, err := s.before(StoreOpSchedule, StoreSchedule, intent.Backend)
	defer s.returned(StoreOpSchedule)
	if err != nil {
		return err
	}
	call.Intent = scheduler.Ptr(CopyIntent(intent))
	handed := CopyIntent(intent)
	err = s.inner.Schedule(ctx, handed)
	poisonIntent(&handed) // alias.go: a store that kept these pointers now holds poison
	s.after(call, err)
	return err
}

// Clear deletes the intent for backend (fault: store-clear).
func (s *Scheduler) Clear(ctx context.Context, backend string) error {
	call, err := s.before(StoreOpClear, StoreClear, backend)
	defer s.returned(StoreOpClear)
	if err != nil {
		return err
	}
	err = s.inner.Clear(ctx, backend)
	s.after(call, err)
	return err
}

// List passes through to the inner store when it is a Lister and returns
// ErrNoList otherwise. It is the alarm's read (scheduler.Waker lists the
// store after every firing and at every re-arm), not a workspace call: it
// blocks on both sides like every call ("store.list"), so that whatever
// else runs can change the store between this listing and what its caller
// does with it, but it never fails by injection and is not recorded. A
// host's own reads for its checks must go to the inner store instead, past
// this wrapper: they must not be blocking points.
func (s *Scheduler) List(ctx context.Context) ([]scheduler.Intent, error) {
	l, ok := s.inner.(scheduler.Lister)
	if !ok {
		return nil, ErrNoList
	}
	s.hooks.Block(storePoint(StoreOpList))
	defer s.returned(StoreOpList)
	got, err := l.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]scheduler.Intent, len(got))
	for i := range got {
		out[i] = CopyIntent(got[i])
		poisonIntent(&got[i])
	}
	return out, nil
}

// Calls returns every recorded call in order.
func (s *Scheduler) Calls() []StoreCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

// Mark returns a cursor into the record for CallsSince.
func (s *Scheduler) Mark() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.calls)
}

// CallsSince returns the calls recorded after mark.
func (s *Scheduler) CallsSince(mark int) []StoreCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	mark = min(max(mark, 0), len(s.calls))
	return slices.Clone(s.calls[mark:])
}

// CallsView is CallsSince without the copy: the calls after mark as a
// read-only slice sharing the record, whose capacity ends at its length so
// that an append copies. Recorded calls are never written again, so the
// view stays valid while the wrapper lives.
func (s *Scheduler) CallsView(mark int) []StoreCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	mark = min(max(mark, 0), len(s.calls))
	return s.calls[mark:len(s.calls):len(s.calls)]
}
