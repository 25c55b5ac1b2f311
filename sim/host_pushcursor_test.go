package sim

import (
	"testing"

	"github.com/syncsim/syncsim/scheduler"
)

// TestPushCursorNotPastRemote: between steps, a local push cursor past the
// remote's applied-push cursor on a backend whose log held is a push
// recorded before the remote took it in (pushed-applied).
func TestPushCursorNotPastRemote(t *testing.T) {
	for _, tc := range []struct {
		push  scheduler.Cursor
		fires bool
	}{{scheduler.Cursor{}, false}, {scheduler.At(1), true}} {
		h := newJudgeHost(t, nil)
		// Written through the host's check, as the probe writes: the store
		// model follows, so the store answers as the model says
		// (local-store) and only the cursor's place is at fault.
		if err := (localStoreCheck{inner: h.stores.store, h: h}).WritePushCursor(h.backends.names[0], tc.push); err != nil {
			t.Fatal(err)
		}
		v := h.viewLocal()
		if fired := v != nil; fired != tc.fires {
			t.Errorf("push cursor %s over a remote that took nothing: expected a violation %v, got %v", tc.push, tc.fires, v)
		}
		if v != nil && v.Property != "pushed-applied" {
			t.Errorf("expected pushed-applied, got %s", v.Property)
		}
		h.Close()
	}
}
