package sim

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim/history"
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
			h, err := NewHost(judged(Config{Seed: 1, Backends: 1, Profile: faults.Only(faults.TransportConnect, 1), Alarm: tc.policy}))
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			if v := h.PlantIntent(0, 5, FenceCurrent, 0); v != nil { // the default's last attempt
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

// TestAlarmFiringsMustNotOverlap: the Waker hands over one firing at a
// time (its firing flag, and the generation check that stops a superseded
// timer's callback). A firing handed over while another is still in flight
// — what a Waker without the check does when a request's re-arm
// supersedes a timer that already fired — is property alarm, and hands
// nothing over; once the first firing is done, the next one proceeds.
func TestAlarmFiringsMustNotOverlap(t *testing.T) {
	h, err := NewHost(judged(Config{Seed: 1, Backends: 1, Profile: faults.Profile{}}))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	// A firing in flight, as the history has it.
	h.appendEvent(history.Event{Kind: history.FiringBegan, Actor: "#1.timer", Alarm: &history.Alarm{Due: []string{h.backends.names[0]}}})
	if err := h.fireAlarm(context.Background(), []string{h.backends.names[0]}); err == nil {
		t.Fatal("a second firing while one was in flight was accepted")
	}
	v := h.violated
	if v == nil || v.Property != "alarm" || !strings.Contains(v.Detail, "must not overlap") || !strings.Contains(v.Detail, "#1.timer") {
		t.Fatalf("expected property alarm naming the firing in flight, got %v", v)
	}
	if live := h.rt.Live(); len(live) != 0 {
		t.Fatalf("the overlapping firing handed something over: %v", live)
	}
}
