package sim

import (
	"slices"

	"github.com/syncsim/syncsim/sim/history"
)

// remoteAt is where backend's remote stands now, for the local store's
// push cursor writes (property push-resend reads it:
// oracle.PushResendChecker); the zero Remote for the store probe's own
// backend.
func (h *Host) remoteAt(backend string) history.Remote {
	i := slices.Index(h.backends.names, backend)
	if i < 0 {
		return history.Remote{}
	}
	ct := h.backends.containers[i]
	return history.Remote{Mark: ct.Mark(), LogEpoch: ct.LogEpoch(), AppliedPush: ct.Watermarks().FetchCursor}
}
