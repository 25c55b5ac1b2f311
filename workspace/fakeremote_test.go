package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/syncsim/syncsim/scheduler"
)

// errInjected labels every fault the fake remote and hookStore plant, so a
// test can tell planted failures from real ones.
var errInjected = errors.New("injected fault")

// fakeEntry is the latest state of one remote path (a live file or a
// tombstone) and the rev that stamped it.
type fakeEntry struct {
	rev     int64
	content []byte
	deleted bool
	// fromPeer marks state written by our own pushes: the remote does not
	// stream it back to us.
	fromPeer bool
}

// fakeRemote is an in-memory SyncRPC faithful to SPEC 6.2: a fresh remote has
// currentRev 1, each mutation is one rev, the change stream is lazily
// materialised from current state, snapshot-bounded and ordered by
// (rev, path), and the appliedPushCursor is the remote's own fetch cursor.
// Hooks inject faults and record what the driver asked. Not safe for
// concurrent use (the driver never calls it concurrently in these tests).
type fakeRemote struct {
	currentRev  int64
	entries     map[string]fakeEntry
	fetchCursor Cursor // how far we (the peer) have pushed into it
	pushRev     int64  // the remote's own outbound push watermark

	// beforeFetch is the settle hook: ignored by FetchChanges on failure,
	// surfaced by Watermarks{Settle: true}.
	beforeFetch func() error
	// fetchErr, when set, fails the call-th FetchChanges (1-based).
	fetchErr func(call int) error
	// lieApplied, when set and returning non-nil, replaces the
	// appliedPushCursor of the call-th fetch.
	lieApplied func(call int) *Cursor
	// failRead maps a fetch call number to the 1-based read of its stream
	// that fails with errInjected.
	failRead map[int]int

	fetches  int
	afters   []Cursor
	throughs []*Cursor
	streams  []*fakeStream
	pushes   []PushRequest
	wmReqs   []WatermarksRequest
}

func newFakeRemote() *fakeRemote {
	return &fakeRemote{currentRev: 1, entries: map[string]fakeEntry{}}
}

// fakeOp is one path mutation for applyAtOneRev.
type fakeOp struct {
	path    string
	content string
	deleted bool
}

// write is one container-side write: one new rev.
func (r *fakeRemote) write(path, content string) int64 {
	return r.applyAtOneRev(fakeOp{path: path, content: content})
}

// remove is one container-side delete: one new rev.
func (r *fakeRemote) remove(path string) int64 {
	return r.applyAtOneRev(fakeOp{path: path, deleted: true})
}

// applyAtOneRev applies ops as one filesystem mutation (e.g. a rename of a
// directory): every touched path is stamped with the same new rev.
func (r *fakeRemote) applyAtOneRev(ops ...fakeOp) int64 {
	r.currentRev++
	for _, op := range ops {
		e := fakeEntry{rev: r.currentRev, deleted: op.deleted}
		if !op.deleted {
			e.content = []byte(op.content)
		}
		r.entries[op.path] = e
	}
	return r.currentRev
}

// files returns the remote's live files, sorted, in the shape of Store.Files.
func (r *fakeRemote) files() []File {
	var out []File
	for p, e := range r.entries {
		if !e.deleted {
			out = append(out, File{Path: p, Content: copyContent(e.content), Rev: e.rev})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// FetchChanges implements SyncRPC.
func (r *fakeRemote) FetchChanges(_ context.Context, req FetchRequest) (*FetchEnvelope, error) {
	r.fetches++
	call := r.fetches
	r.afters = append(r.afters, req.After)
	r.throughs = append(r.throughs, req.Through)
	if r.fetchErr != nil {
		if err := r.fetchErr(call); err != nil {
			return nil, err
		}
	}
	if r.beforeFetch != nil {
		_ = r.beforeFetch() // SPEC 6.2: logged and ignored here
	}
	current := scheduler.At(r.currentRev)
	if req.Through != nil && req.Through.Less(current) {
		current = *req.Through
	}
	applied := r.fetchCursor
	if r.lieApplied != nil {
		if c := r.lieApplied(call); c != nil {
			applied = *c
		}
	}
	s := &fakeStream{remote: r, pos: req.After, current: current, failAt: r.failRead[call]}
	r.streams = append(r.streams, s)
	return &FetchEnvelope{CurrentCursor: current, AppliedPushCursor: applied, Changes: s}, nil
}

// Watermarks implements SyncRPC.
func (r *fakeRemote) Watermarks(_ context.Context, req WatermarksRequest) (Watermarks, error) {
	r.wmReqs = append(r.wmReqs, req)
	if req.Settle && r.beforeFetch != nil {
		if err := r.beforeFetch(); err != nil {
			return Watermarks{}, err
		}
	}
	return Watermarks{CurrentRev: r.currentRev, PushRev: r.pushRev, FetchCursor: r.fetchCursor}, nil
}

// Push implements SyncRPC: the whole batch lands in one step.
func (r *fakeRemote) Push(_ context.Context, req PushRequest) (PushResult, error) {
	r.pushes = append(r.pushes, req)
	sender := scheduler.At(req.SenderRev)
	if req.SenderCursor != nil {
		sender = *req.SenderCursor
	}
	for _, c := range req.Changes {
		r.currentRev++
		r.entries[c.Path] = fakeEntry{rev: r.currentRev, content: changeContent(c.Deleted, c.Content), deleted: c.Deleted, fromPeer: true}
	}
	res := PushResult{Rev: r.currentRev, Applied: len(req.Changes)}
	if sender.Rev > 0 {
		r.fetchCursor = scheduler.MaxCursor(r.fetchCursor, sender)
		res.AppliedPushCursor = sender
	}
	return res, nil
}

// fakeStream yields entries in (pos, current], reading current state at
// every Next, so a path rewritten after the snapshot drops out of it.
type fakeStream struct {
	remote  *fakeRemote
	pos     Cursor
	current Cursor
	failAt  int
	reads   int
	closes  int
}

func (s *fakeStream) Next(context.Context) (Change, error) {
	if s.closes > 0 {
		return Change{}, errors.New("fakeStream: Next after Close")
	}
	s.reads++
	if s.failAt > 0 && s.reads == s.failAt {
		return Change{}, fmt.Errorf("injected stream failure at read %d: %w", s.reads, errInjected)
	}
	var (
		best  Change
		found bool
	)
	for p, e := range s.remote.entries {
		c := scheduler.AtPath(e.rev, p)
		if e.fromPeer || !inRange(c, s.pos, s.current) {
			continue
		}
		if !found || c.Less(best.Cursor()) {
			best = Change{Rev: e.rev, Path: p, Deleted: e.deleted, Content: changeContent(e.deleted, e.content)}
			found = true
		}
	}
	if !found {
		return Change{}, io.EOF
	}
	s.pos = best.Cursor()
	return best, nil
}

func (s *fakeStream) Close() error {
	s.closes++
	return nil
}

// hookStore wraps a Store to observe or fail ApplyUpstream calls.
type hookStore struct {
	Store
	applies     int
	beforeApply func(call int, changes []Change) error
}

func (h *hookStore) ApplyUpstream(backend string, changes []Change) (int, error) {
	h.applies++
	if h.beforeApply != nil {
		if err := h.beforeApply(h.applies, changes); err != nil {
			return 0, err
		}
	}
	return h.Store.ApplyUpstream(backend, changes)
}

// sameFiles reports whether two file lists hold the same paths and contents
// (revs live in different rev spaces and are ignored).
func sameFiles(a, b []File) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Path != b[i].Path || !bytes.Equal(a[i].Content, b[i].Content) {
			return false
		}
	}
	return true
}

// afterFetchRPC runs hook right after the inner FetchChanges returns (the
// "proxy" of SPEC 9 S2).
type afterFetchRPC struct {
	*fakeRemote
	hook func()
}

func (a afterFetchRPC) FetchChanges(ctx context.Context, req FetchRequest) (*FetchEnvelope, error) {
	env, err := a.fakeRemote.FetchChanges(ctx, req)
	if err == nil {
		a.hook()
	}
	return env, err
}
