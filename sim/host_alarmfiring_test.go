package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/syncsim/syncsim/faults"
)

// TestAlarmCheckedRightAfterFiring: an intent the host planted at the last
// attempt is handed to a firing whose retry cannot connect, so the retry
// exhausts it and leaves it as it was (SPEC 4: only complete and lost
// clear). The correct Waker settles it
// and cancels the alarm; a Waker that settles nothing (the planted
// alarm-no-settle) re-arms for it, and property alarm breaks as its timer
// callback returns — before the host's re-arm at the step's check, which
// would otherwise be the only one to look.
func TestAlarmCheckedRightAfterFiring(t *testing.T) {
	for _, tc := range []struct {
		name   string
		policy AlarmPolicy
		fires  bool
	}{
		{"correct Waker", AlarmByRule, false},
		{"no settle", AlarmNoSettle, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := NewHost(Config{Seed: 1, Backends: 1, Profile: faults.Only(faults.TransportConnect, 1), Alarm: tc.policy})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			if v := h.PlantIntent(0, 5, false, 0); v != nil { // the default's last attempt
				t.Fatal(v)
			}
			v := h.Advance(time.Minute)
			if fired := v != nil; fired != tc.fires {
				t.Fatalf("expected a violation %t, got %v", tc.fires, v)
			}
			if v != nil && (v.Property != "alarm" || !strings.HasPrefix(v.Detail, "right after a firing")) {
				t.Fatalf("expected alarm right after the firing, got %s: %s", v.Property, v.Detail)
			}
		})
	}
}
