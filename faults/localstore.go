package faults

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/syncsim/syncsim/workspace"
)

// LocalStore wraps the workspace's local store (files and cursors) the way
// Scheduler wraps the intent store. Every call is a blocking point
// ("local.<op>"): the simulator may switch actors there, and a host restart
// cut there lands between two local writes (between applying a batch and
// writing its cursor, between two entries of a batch). Then a fault of kind
// LocalIO may fail the call BEFORE the inner store is touched, so a
// failed call never half-writes; the error wraps ErrInjected.
//
// Only injected faults are recorded (each with the position in its
// backend's runtime record at the time, so a judge can place it among the
// runtime calls): every other call leaves nothing behind, which keeps the
// wrapper cheap on the sweep's hot path.
type LocalStore struct {
	inner   workspace.Store
	hooks   Hooks
	rets    ReturnHooks // hooks' Return side, nil when it has none
	rng     *rand.Rand
	profile *Profile
	secrets *Secrets
	mark    func(backend string) int

	mu       sync.Mutex
	faultsOn bool
	faults   []LocalFault
}

var _ workspace.Store = (*LocalStore)(nil)

// localCallsPerSync is about how many local-store calls one sync operation
// makes (cursors read, a batch applied, cursors written). The profile's
// LocalIO value is read as the chance that one sync meets a local fault, so
// each call fails with a share of it: taken per call, p = 0.3 would fail
// nearly every operation before it reached anything else worth testing.
const localCallsPerSync = 8

// LocalFault is one injected local-store failure.
type LocalFault struct {
	Seq     int
	Actor   string
	Op      string
	Backend string
	// Pos is how many calls the backend's runtime record held when the
	// call was made (the mark function's answer; 0 without one).
	Pos int
	Err string
}

// NewLocalStore wraps inner. Faults are drawn from rng (owned by the
// wrapper from now on) with *profile, read at each call (nil: Off); mark
// (may be nil) tells a backend's record position. Faults start on.
func NewLocalStore(inner workspace.Store, hooks Hooks, rng *rand.Rand, profile *Profile, mark func(backend string) int) *LocalStore {
	if hooks == nil {
		hooks = NoHooks{}
	}
	return &LocalStore{inner: inner, hooks: hooks, rets: returnsOf(hooks), rng: rng, profile: profile, mark: mark, faultsOn: true}
}

// PlantSecrets makes every injected error carry a fake credential from p.
func (s *LocalStore) PlantSecrets(p *Secrets) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.secrets = p
}

// SetFaults turns fault draws on or off.
func (s *LocalStore) SetFaults(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faultsOn = on
}

// Faults returns the injected faults after mark (a count of faults).
func (s *LocalStore) Faults(mark int) []LocalFault {
	s.mu.Lock()
	defer s.mu.Unlock()
	mark = min(max(mark, 0), len(s.faults))
	return slices.Clone(s.faults[mark:])
}

// Mark returns how many faults were injected so far.
func (s *LocalStore) Mark() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.faults)
}

// returned is the blocking point after a call of op returns (ReturnHooks).
func (s *LocalStore) returned(op string) {
	if s.rets != nil {
		s.rets.Return(localPoint(op))
	}
}

// before blocks at the call's point and draws its fault.
func (s *LocalStore) before(op, backend string) error {
	s.hooks.Block(localPoint(op))
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.faultsOn || s.profile == nil || !s.profile.On(LocalIO) ||
		s.rng.Float64() >= s.profile.Get(LocalIO)/localCallsPerSync {
		return nil
	}
	err := s.secrets.injected(LocalIO, fmt.Sprintf("%s %s: %s", op, backend, msgLocal))
	f := LocalFault{Seq: len(s.faults) + 1, Actor: s.hooks.Actor(), Op: op, Backend: backend, Err: PublicText(err)}
	if s.mark != nil {
		f.Pos = s.mark(backend)
	}
	s.faults = append(s.faults, f)
	return err
}

// WriteFile is the inner store's WriteFile at blocking point
// "local.write-file". A content up to 64 KiB is handed on in a copy of the
// wrapper's own, poisoned after the call, so a store that keeps the
// caller's buffer shows it (localalias.go).
func (s *LocalStore) WriteFile(backend, path string, content []byte, deleted bool) (int64, error) {
	err := s.before("write-file", backend)
	defer s.returned("write-file")
	if err != nil {
		return 0, err
	}
	if own, ok := ownContent(content); ok {
		defer poisonContent(own)
		content = own
	}
	return s.inner.WriteFile(backend, path, content, deleted)
}

// ApplyUpstream is the inner store's ApplyUpstream at blocking point
// "local.apply-upstream", with each change's content copied and poisoned
// after the call, as WriteFile's.
func (s *LocalStore) ApplyUpstream(backend string, changes []workspace.Change) (int, error) {
	err := s.before("apply-upstream", backend)
	defer s.returned("apply-upstream")
	if err != nil {
		return 0, err
	}
	own := make([]workspace.Change, len(changes))
	var owned [][]byte
	for i, c := range changes {
		if b, ok := ownContent(c.Content); ok {
			c.Content = b
			owned = append(owned, b)
		}
		own[i] = c
	}
	defer func() {
		for _, b := range owned {
			poisonContent(b)
		}
	}()
	return s.inner.ApplyUpstream(backend, own)
}

// Files is the inner store's Files at blocking point "local.files".
func (s *LocalStore) Files(backend string) ([]workspace.File, error) {
	err := s.before("files", backend)
	defer s.returned("files")
	if err != nil {
		return nil, err
	}
	return s.inner.Files(backend)
}

// CurrentRev is the inner store's CurrentRev at blocking point
// "local.current-rev".
func (s *LocalStore) CurrentRev(backend string) (int64, error) {
	err := s.before("current-rev", backend)
	defer s.returned("current-rev")
	if err != nil {
		return 0, err
	}
	return s.inner.CurrentRev(backend)
}

// LocalChanges is the inner store's LocalChanges at blocking point
// "local.local-changes".
func (s *LocalStore) LocalChanges(backend string, after, through workspace.Cursor, limit int) ([]workspace.Change, error) {
	err := s.before("local-changes", backend)
	defer s.returned("local-changes")
	if err != nil {
		return nil, err
	}
	return s.inner.LocalChanges(backend, after, through, limit)
}

// FetchCursor is the inner store's FetchCursor at blocking point
// "local.fetch-cursor".
func (s *LocalStore) FetchCursor(backend string) (workspace.Cursor, error) {
	err := s.before("fetch-cursor", backend)
	defer s.returned("fetch-cursor")
	if err != nil {
		return workspace.Cursor{}, err
	}
	return s.inner.FetchCursor(backend)
}

// WriteFetchCursor is the inner store's WriteFetchCursor at blocking
// point "local.write-fetch-cursor".
func (s *LocalStore) WriteFetchCursor(backend string, c workspace.Cursor) error {
	err := s.before("write-fetch-cursor", backend)
	defer s.returned("write-fetch-cursor")
	if err != nil {
		return err
	}
	return s.inner.WriteFetchCursor(backend, c)
}

// WriteFetchCursorIfAhead is the inner store's WriteFetchCursorIfAhead at
// blocking point "local.write-fetch-cursor-if-ahead".
func (s *LocalStore) WriteFetchCursorIfAhead(backend string, c workspace.Cursor) (bool, error) {
	err := s.before("write-fetch-cursor-if-ahead", backend)
	defer s.returned("write-fetch-cursor-if-ahead")
	if err != nil {
		return false, err
	}
	return s.inner.WriteFetchCursorIfAhead(backend, c)
}

// PushRev is the inner store's PushRev at blocking point "local.push-rev".
func (s *LocalStore) PushRev(backend string) (int64, error) {
	err := s.before("push-rev", backend)
	defer s.returned("push-rev")
	if err != nil {
		return 0, err
	}
	return s.inner.PushRev(backend)
}

// SetPushRev is the inner store's SetPushRev at blocking point
// "local.set-push-rev".
func (s *LocalStore) SetPushRev(backend string, rev int64) error {
	err := s.before("set-push-rev", backend)
	defer s.returned("set-push-rev")
	if err != nil {
		return err
	}
	return s.inner.SetPushRev(backend, rev)
}

// PushCursor is the inner store's PushCursor at blocking point
// "local.push-cursor".
func (s *LocalStore) PushCursor(backend string) (workspace.Cursor, error) {
	err := s.before("push-cursor", backend)
	defer s.returned("push-cursor")
	if err != nil {
		return workspace.Cursor{}, err
	}
	return s.inner.PushCursor(backend)
}

// WritePushCursor is the inner store's WritePushCursor at blocking point
// "local.write-push-cursor".
func (s *LocalStore) WritePushCursor(backend string, c workspace.Cursor) error {
	err := s.before("write-push-cursor", backend)
	defer s.returned("write-push-cursor")
	if err != nil {
		return err
	}
	return s.inner.WritePushCursor(backend, c)
}
