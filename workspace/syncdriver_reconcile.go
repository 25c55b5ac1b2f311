package workspace

import (
	"context"

	"github.com/syncsim/syncsim/scheduler"
)

// reconcileWatermarks is SPEC 6.6, run on every new connection: a remote
// whose log is shorter than our fetch cursor, or that has applied less of
// our pushes than our push cursor says, was replaced or truncated, so the
// matching cursor goes back to the baseline. The remote's own outbound
// pushRev is deliberately ignored.
func reconcileWatermarks(ctx context.Context, st Store, backend string, rpc SyncRPC) (fetchReset, pushReset bool, err error) {
	w, err := rpc.Watermarks(ctx, WatermarksRequest{})
	if err != nil {
		return false, false, rpcErr("watermarks", err)
	}
	fetch, err := st.FetchCursor(backend)
	if err != nil {
		return false, false, err
	}
	if w.CurrentRev < fetch.Rev {
		if err := st.WriteFetchCursor(backend, scheduler.Baseline); err != nil {
			return false, false, err
		}
		fetchReset = true
	}
	push, err := st.PushCursor(backend)
	if err != nil {
		return fetchReset, false, err
	}
	if w.FetchCursor.Less(push) {
		if err := st.WritePushCursor(backend, scheduler.Baseline); err != nil {
			return fetchReset, false, err
		}
		pushReset = true
	}
	return fetchReset, pushReset, nil
}
