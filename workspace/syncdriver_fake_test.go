package workspace

import (
	"errors"
	"testing"
)

// S2 (and the fake's snapshot bound): a write landing after fetchChanges
// returned is not pulled; the cursor stops at the advertised snapshot.
func TestS2PullOncePersistsOnlyTheAdvertisedSnapshot(t *testing.T) {
	st, r := NewMemoryStore(), newFakeRemote()
	snap := r.write("/before.txt", "before")
	rpc := afterFetchRPC{fakeRemote: r, hook: func() { r.write("/after.txt", "after") }}
	res, err := pullOnce(ctxBG, st, sdBackend, rpc, 0)
	must(t, err)
	diff(t, "result", pullResult{Complete: true, Applied: 1, Skipped: []string{}, Entries: 1, Bytes: 6,
		Cursor: at(snap), TargetCursor: at(snap)}, res)
	diff(t, "files", []File{{Path: "/before.txt", Content: []byte("before"), Rev: snap}}, mustFiles(t, st))
	diff(t, "cursor", at(snap), mustFetchCursor(t, st))
	if snap >= r.currentRev {
		t.Errorf("advertised rev %d not below the remote's %d", snap, r.currentRev)
	}
}

// A path rewritten after the snapshot drops out of the open stream and is
// delivered by the next pull.
func TestFakeRemoteRewrittenPathIsRedeliveredLater(t *testing.T) {
	st, r := NewMemoryStore(), newFakeRemote()
	r.write("/a", "a1")
	r.write("/b", "b1")
	rpc := afterFetchRPC{fakeRemote: r, hook: func() { r.write("/a", "a2") }}
	res, err := pullOnce(ctxBG, st, sdBackend, rpc, 0)
	must(t, err)
	diff(t, "first pull entries", 1, res.Entries)
	mustPullOnce(t, st, r)
	if !sameFiles(r.files(), mustFiles(t, st)) {
		t.Errorf("files differ after the second pull")
	}
}

// The settle hook: ignored by fetchChanges, surfaced by watermarks(settle).
func TestFakeRemoteSettleHook(t *testing.T) {
	r := newFakeRemote()
	r.beforeFetch = func() error { return errInjected }
	_, err := r.FetchChanges(ctxBG, FetchRequest{})
	must(t, err)
	_, err = r.Watermarks(ctxBG, WatermarksRequest{})
	must(t, err)
	if _, err := r.Watermarks(ctxBG, WatermarksRequest{Settle: true}); !errors.Is(err, errInjected) {
		t.Errorf("settle err = %v", err)
	}
	// reconcile never settles.
	st := NewMemoryStore()
	_, _, err = reconcileWatermarks(ctxBG, st, sdBackend, r)
	must(t, err)
	diff(t, "last request", WatermarksRequest{}, r.wmReqs[len(r.wmReqs)-1])
}
