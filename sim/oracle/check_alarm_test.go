package oracle

import (
	"strings"
	"testing"
	"time"

	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/sim/history"
	"github.com/syncsim/syncsim/workspace"
)

// storeRecord is an intent-store record a test lends the checker.
type storeRecord []faults.StoreCall

func (storeRecord) RuntimeSince(int, int) []faults.Call { return nil }

func (r storeRecord) StoreSince(mark int) []faults.StoreCall { return r[min(mark, len(r)):] }

var alarmT0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// alarmRun feeds a fresh AlarmChecker the events, after a host start, and
// returns what it reported.
func alarmRun(t *testing.T, want func(string) bool, record storeRecord, events ...history.Event) []string {
	t.Helper()
	c := NewAlarmChecker(want)
	c.Begin(history.Setup{Backends: []string{"b0", "b1"}, T0: alarmT0,
		Retry: workspace.RetryOptions{InitialDelay: time.Second, MaxDelay: time.Minute, MaxAttempts: 5}}, record)
	var rep recorder
	c.Observe(&history.Event{Kind: history.HostStart, Start: 1}, &rep)
	for i := range events {
		if !c.Reads().Has(events[i].Kind) {
			t.Fatalf("the checker does not read %s", events[i].Kind)
		}
		c.Observe(&events[i], &rep)
	}
	return rep.violations
}

func intentAt(backend string, attempt int, after time.Duration) scheduler.Intent {
	return scheduler.Intent{Backend: backend, Attempt: attempt, NotBefore: alarmT0.Add(after)}
}

func alarmAt(after time.Duration) *history.Alarm {
	return &history.Alarm{At: alarmT0.Add(after), Set: true}
}

// A firing that handed an exhausted intent over and had it accepted
// settles it when the callback's next listing finds it unchanged: the
// Waker must then leave the alarm unset (the correct Waker), and one that
// re-arms for it (the planted alarm-no-settle) breaks alarm as the
// callback returns.
func TestAlarmSettledRightAfterFiring(t *testing.T) {
	last := []scheduler.Intent{intentAt("b0", 5, time.Second)}
	firing := func(after *history.Alarm) []history.Event {
		return []history.Event{
			{Kind: history.WakerListed, Actor: "#2.timer", Intents: last, Alarm: &history.Alarm{Began: alarmT0.Add(time.Second)}},
			{Kind: history.FiringBegan, Actor: "#2.timer", Alarm: &history.Alarm{Due: []string{"b0"}}},
			{Kind: history.FiringEnded, Actor: "#2.timer", Alarm: &history.Alarm{Outcome: history.FiringAccepted}},
			{Kind: history.WakerListed, Actor: "#2.timer", Intents: last, Alarm: &history.Alarm{Began: alarmT0.Add(time.Second)}},
			{Kind: history.TimerReturned, Actor: "#2.timer", Intents: last, Alarm: after},
		}
	}
	if got := alarmRun(t, nil, nil, firing(&history.Alarm{})...); len(got) != 0 {
		t.Fatalf("an alarm left unset after settling its one intent: %v", got)
	}
	got := alarmRun(t, nil, nil, firing(alarmAt(time.Second))...)
	want := "alarm: right after a firing, before the host re-armed it: expected the alarm at unset (nothing pending), got +0000001.000: earlier than anything pending"
	if len(got) != 1 || got[0] != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// After a rejected firing the alarm may wait the retry delay past an
// intent's notBefore, not longer.
func TestAlarmRetryDelayAfterRejectedFiring(t *testing.T) {
	in := []scheduler.Intent{intentAt("b0", 1, time.Second)}
	run := func(alarm time.Duration) []string {
		return alarmRun(t, nil, nil,
			history.Event{Kind: history.WakerListed, Actor: "#2.timer", Intents: in, Alarm: &history.Alarm{Began: alarmT0.Add(time.Second)}},
			history.Event{Kind: history.FiringBegan, Actor: "#2.timer", Alarm: &history.Alarm{Due: []string{"b0"}}},
			history.Event{Kind: history.FiringEnded, Actor: "#2.timer", Alarm: &history.Alarm{Outcome: history.FiringRejected}},
			history.Event{Kind: history.TimerReturned, Actor: "#2.timer", Intents: in, Alarm: alarmAt(alarm)})
	}
	if got := run(2 * time.Second); len(got) != 0 {
		t.Fatalf("the alarm at the end of the retry delay: %v", got)
	}
	if got := run(3 * time.Second); len(got) != 1 || !strings.Contains(got[0], "expected the alarm at or before +0000001.000 (intent b0's notBefore), got +0000003.000") {
		t.Fatalf("the alarm past the retry delay: got %q", got)
	}
}

// A second firing while one is in flight is alarm, naming both.
func TestAlarmFiringsOverlap(t *testing.T) {
	begin := func(actor string) history.Event {
		return history.Event{Kind: history.FiringBegan, Actor: actor, Alarm: &history.Alarm{Due: []string{"b0", "b1"}}}
	}
	got := alarmRun(t, nil, nil, begin("#2.timer"), begin("#3.timer"))
	want := "alarm: #3.timer: the Waker began a firing (due b0,b1) while #2.timer's was still in flight: firings must not overlap"
	if len(got) != 1 || got[0] != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	ended := history.Event{Kind: history.FiringEnded, Actor: "#2.timer", Alarm: &history.Alarm{Outcome: history.FiringAborted}}
	if got := alarmRun(t, nil, nil, begin("#2.timer"), ended, begin("#3.timer")); len(got) != 0 {
		t.Fatalf("a firing after the last one ended: %v", got)
	}
}

// At the check before the host re-arms, the Waker's alarm must serve every
// intent stored before the call of a Rearm that returned — and nothing
// stored after every returned Rearm began.
func TestAlarmServesReturnedRearms(t *testing.T) {
	record := storeRecord{{Seq: 1, Op: faults.StoreOpSchedule, Backend: "b0"}}
	stored := []scheduler.Intent{intentAt("b0", 1, 2*time.Second)}
	run := func(mark int) []string {
		return alarmRun(t, nil, record,
			history.Event{Kind: history.Rearmed, Alarm: &history.Alarm{Mark: mark}},
			history.Event{Kind: history.StepEnd, Intents: stored},
			history.Event{Kind: history.AlarmChecked, Alarm: alarmAt(3 * time.Second)})
	}
	if got := run(0); len(got) != 0 {
		t.Fatalf("an intent stored after the Rearm's call: %v", got)
	}
	want := "alarm: at the check, before the host re-armed, after every Rearm since the intent was stored had returned: expected the alarm at or before +0000002.000 (intent b0's notBefore), got +0000003.000"
	if got := run(1); len(got) != 1 || got[0] != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// After the host re-armed, the alarm is exactly the rule's: neither later
// nor earlier than the earliest pending intent; an owning store is held to
// lateness only.
func TestAlarmAtTheCheck(t *testing.T) {
	stored := []scheduler.Intent{intentAt("b0", 1, 2*time.Second), intentAt("b1", 6, time.Second)} // b1 exhausted
	check := func(owns bool, alarm *history.Alarm) []string {
		alarm.Rearmed = true
		c := NewAlarmChecker(nil)
		c.Begin(history.Setup{T0: alarmT0, Retry: workspace.RetryOptions{MaxAttempts: 5}}, nil)
		var rep recorder
		for _, e := range []history.Event{{Kind: history.HostStart, OwnsAlarm: owns}, {Kind: history.StepEnd, Intents: stored}, {Kind: history.AlarmChecked, Alarm: alarm}} {
			c.Observe(&e, &rep)
		}
		return rep.violations
	}
	if got := check(false, alarmAt(2*time.Second)); len(got) != 0 {
		t.Fatalf("the alarm at the earliest pending intent: %v", got)
	}
	if got := check(false, alarmAt(time.Second)); len(got) != 1 || !strings.Contains(got[0], "expected the alarm at +0000002.000, got +0000001.000: earlier than anything pending") {
		t.Fatalf("an early alarm: got %q", got)
	}
	if got := check(true, alarmAt(time.Second)); len(got) != 0 {
		t.Fatalf("an owning store's early alarm: %v", got)
	}
	if got := check(true, &history.Alarm{}); len(got) != 1 || !strings.Contains(got[0], "got unset") {
		t.Fatalf("an owning store's unset alarm: got %q", got)
	}
}

// Timers stuck at one instant (a failure the driver records) are
// alarm-progress, reported only when selected; another property's driver
// failure is not the alarm's.
func TestAlarmProgress(t *testing.T) {
	failed := func(property string) history.Event {
		return history.Event{Kind: history.DriverFailed, Driver: &history.DriverFailure{Property: property, Detail: "timers fired 64 times at one instant"}}
	}
	if got := alarmRun(t, nil, nil, failed("alarm-progress")); len(got) != 1 || got[0] != "alarm-progress: timers fired 64 times at one instant" {
		t.Fatalf("got %q", got)
	}
	if got := alarmRun(t, func(p string) bool { return p == "alarm" }, nil, failed("alarm-progress")); len(got) != 0 {
		t.Fatalf("alarm-progress not selected, got %q", got)
	}
	if got := alarmRun(t, nil, nil, failed("durability")); len(got) != 0 {
		t.Fatalf("another property's failure, got %q", got)
	}
}
