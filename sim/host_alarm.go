package sim

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/syncsim/syncsim/scheduler"
)

// maxAlarmRounds bounds how often the alarm may fire at one instant: a host
// that re-arms at the instant it just handled is livelocked in virtual time.
const maxAlarmRounds = 64

// fireAlarm is the host's alarm handler: retry every due backend
// concurrently, then re-arm.
func (h *Host) fireAlarm() *Violation {
	now := h.clock.Now()
	for round := 0; ; round++ {
		if round == maxAlarmRounds {
			return h.fail("alarm-progress", "alarm fired "+itoa(maxAlarmRounds)+" times at one instant")
		}
		intents, err := h.storedIntents()
		if err != nil {
			return h.fail("durability", err.Error())
		}
		var due []string
		if h.cfg.Alarm == AlarmByRule {
			due = h.rule().Due(intents, now)
			if h.redoSet && !h.redoAt.After(now) {
				due = mergeSorted(due, h.redo)
				h.redo, h.redoSet = nil, false
			}
		} else {
			// The seed articles' host retries whatever is due when its one
			// alarm goes off.
			due = scheduler.Due(intents, h.opts.MaxAttempts, now)
			h.alarmSet = false
		}
		h.event("-", "alarm", "due="+strings.Join(due, ","))
		for _, b := range due {
			i := h.index(b)
			h.spawnRetry(h.actorName("alarm", i), i)
		}
		if v := h.Step(); v != nil {
			return v
		}
		if h.cfg.Alarm == AlarmByRule {
			h.noteRejected(now)
			h.handled = now
			if err := h.rearm(); err != nil {
				return h.fail("durability", err.Error())
			}
		}
		if !h.alarmSet || h.alarm.After(now) {
			return nil
		}
	}
}

// noteRejected remembers the backends whose alarm-driven retry was rejected
// (a store call outside the pull's try failed): their intents are due at or
// before the handled instant, so the rule alone would strand them. The host
// hands them over again after its own short delay, as a production host
// re-arms after a store outage.
func (h *Host) noteRejected(now time.Time) {
	for _, f := range h.done {
		if f.kind == "retry" && f.err != nil && strings.Contains(f.actor, ".alarm.") {
			h.redo = mergeSorted(h.redo, []string{h.names[f.backend]})
			h.redoAt, h.redoSet = now.Add(h.opts.InitialDelay), true
		}
	}
}

func mergeSorted(a, b []string) []string {
	out := append(append([]string(nil), a...), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

func (h *Host) rule() scheduler.AlarmRule {
	return scheduler.AlarmRule{MaxAttempts: h.opts.MaxAttempts, Handled: h.handled}
}

// rearm sets the alarm from the stored intents (the correct host).
func (h *Host) rearm() error {
	intents, err := h.storedIntents()
	if err != nil {
		return err
	}
	at, ok := h.rule().Next(intents)
	if h.redoSet && (!ok || h.redoAt.Before(at)) {
		at, ok = h.redoAt, true
	}
	if ok != h.alarmSet || !at.Equal(h.alarm) {
		h.setAlarm(at, ok)
	}
	return nil
}

func (h *Host) setAlarm(at time.Time, ok bool) {
	h.alarm, h.alarmSet = at, ok
	if ok {
		h.event("-", "alarm-set", "at=+"+at.Sub(Epoch).String())
	} else {
		h.event("-", "alarm-cancel")
	}
}

// storedIntents reads the intent table straight from the store, past the
// fault wrapper: the host's own bookkeeping is not a fault target.
func (h *Host) storedIntents() ([]scheduler.Intent, error) {
	l, ok := h.inner.(scheduler.Lister)
	if !ok {
		return nil, errNoLister
	}
	return l.List(context.Background())
}

func (h *Host) index(backend string) int {
	for i, n := range h.names {
		if n == backend {
			return i
		}
	}
	panic("sim: unknown backend " + backend)
}

// singleAlarm is the seed articles' scheduler: every Schedule overwrites the
// host's one alarm with its own NotBefore and every Clear cancels it,
// whatever other backends still wait.
type singleAlarm struct {
	inner scheduler.Scheduler
	host  *Host
}

func (s *singleAlarm) Get(ctx context.Context, b string) (scheduler.Intent, bool, error) {
	return s.inner.Get(ctx, b)
}

func (s *singleAlarm) Schedule(ctx context.Context, in scheduler.Intent) error {
	if err := s.inner.Schedule(ctx, in); err != nil {
		return err
	}
	s.host.alarm, s.host.alarmSet = in.NotBefore, true
	return nil
}

func (s *singleAlarm) Clear(ctx context.Context, b string) error {
	if err := s.inner.Clear(ctx, b); err != nil {
		return err
	}
	s.host.alarmSet = false
	return nil
}
