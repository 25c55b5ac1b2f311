package sim

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/scheduler"
)

// TestClockNativeTimersSpawnInOrder: native timers are handed to the spawn
// function at their due time, by due time then creation order (harness
// timers interleaved by the same order); a stopped one never fires and its
// holder's Stop reported true; a fired one's Stop reports false.
func TestClockNativeTimersSpawnInOrder(t *testing.T) {
	c := NewClock(clockStart)
	var got []string
	var pending []func()
	c.SetSpawn(func(label string, fn func()) {
		got = append(got, "spawn "+label+"@"+c.Since(clockStart).String())
		pending = append(pending, fn)
	})
	rec := func(name string) func() { return func() { got = append(got, name) } }
	late := c.AfterFunc(5*time.Second, rec("late"))
	c.AfterFunc(2*time.Second, rec("a"))
	c.At(clockStart.Add(2*time.Second), rec("harness")) // created after a: fires after it
	c.AfterFunc(2*time.Second, rec("b"))
	stopped := c.AfterFunc(time.Second, rec("stopped"))
	c.AfterFunc(-time.Second, rec("due")) // due at once: fires at the next advance
	if !stopped.Stop() {
		t.Fatal("Stop of a pending native timer reported false")
	}
	if due, ok := c.NextDue(); !ok || !due.Equal(clockStart) {
		t.Fatalf("NextDue = %v %v, want the start (the due timer)", due, ok)
	}
	c.Advance(3 * time.Second)
	want := []string{"spawn timer@0s", "spawn timer@2s", "harness", "spawn timer@2s"}
	if !slices.Equal(got, want) {
		t.Fatalf("fired %v, want %v", got, want)
	}
	for _, fn := range pending {
		fn()
	}
	if want := append(want, "due", "a", "b"); !slices.Equal(got, want) {
		t.Errorf("callbacks ran %v, want %v", got, want)
	}
	if c.Pending() != 1 {
		t.Errorf("Pending = %d, want 1 (late)", c.Pending())
	}
	c.Advance(5 * time.Second)
	if late.Stop() {
		t.Error("Stop after the timer fired reported true")
	}
	if len(c.Escapes()) != 0 {
		t.Errorf("escapes %v", c.Escapes())
	}
}

// TestClockNativeEscapes: what the clock cannot schedule is recorded, never
// run on a goroutine of its own.
func TestClockNativeEscapes(t *testing.T) {
	c := NewClock(clockStart)
	c.SetSpawn(func(string, func()) { t.Error("an escaped timer was spawned") })
	c.Ticker(time.Second)
	reset := c.AfterFunc(time.Second, func() {})
	reset.Reset(2 * time.Second)
	c.Advance(time.Minute)
	esc := c.Escapes()
	if len(esc) != 2 || !strings.HasPrefix(esc[0], "Ticker") || !strings.HasPrefix(esc[1], "Timer.Reset") {
		t.Errorf("escapes = %q, want Ticker then Timer.Reset", esc)
	}
}

// TestClockWithTimeoutIsVirtual: a deadline context ends exactly when
// virtual time reaches it, with DeadlineExceeded, and its cancel func ends
// it with Canceled before that.
func TestClockWithTimeoutIsVirtual(t *testing.T) {
	c := NewClock(clockStart)
	ctx, cancel := c.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if d, ok := ctx.Deadline(); !ok || !d.Equal(clockStart.Add(2*time.Second)) {
		t.Errorf("Deadline = %v %v", d, ok)
	}
	c.Advance(2*time.Second - time.Nanosecond)
	if ctx.Err() != nil {
		t.Fatalf("Err = %v before the deadline", ctx.Err())
	}
	c.Advance(time.Nanosecond)
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Errorf("Err = %v at the deadline, want DeadlineExceeded", ctx.Err())
	}
	ctx2, cancel2 := c.WithTimeout(context.Background(), time.Second)
	cancel2()
	if !errors.Is(ctx2.Err(), context.Canceled) || c.Pending() != 0 {
		t.Errorf("after cancel: Err = %v, Pending = %d", ctx2.Err(), c.Pending())
	}
	past, cancel3 := c.WithDeadline(context.Background(), clockStart)
	defer cancel3()
	if !errors.Is(past.Err(), context.DeadlineExceeded) {
		t.Errorf("a past deadline: Err = %v", past.Err())
	}
}

// TestClockDropTimers: a host crash drops the SUT's timers, not the
// harness's.
func TestClockDropTimers(t *testing.T) {
	c := NewClock(clockStart)
	fired := 0
	c.AfterFunc(time.Second, func() { fired++ })
	c.At(clockStart.Add(time.Second), func() { fired += 10 })
	c.DropTimers()
	c.Advance(time.Minute)
	if fired != 10 {
		t.Errorf("fired = %d, want only the harness timer (10)", fired)
	}
}

// TestClockHandleFields pins the clock.Timer fields handleState reads and
// newHandle writes: if the library renames them, this fails rather than the
// simulation.
func TestClockHandleFields(t *testing.T) {
	typ := reflect.TypeFor[clock.Timer]()
	for name, want := range map[string]reflect.Type{"stopped": reflect.TypeFor[bool](), "next": reflect.TypeFor[time.Time](), "mock": reflect.TypeFor[*clock.Mock]()} {
		f, ok := typ.FieldByName(name)
		if !ok || f.Type != want {
			t.Errorf("clock.Timer.%s: %v %v, want %v", name, f.Type, ok, want)
		}
	}
}

// TestHostRunsTheProductionWaker: the host's alarm is a scheduler.Waker
// whose timer fires as an actor of the run ("#N.timer alarm due=...").
func TestHostRunsTheProductionWaker(t *testing.T) {
	h, err := NewHost(judged(Config{Seed: 1, Backends: 1, Profile: faults.Off()}))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if v := h.PlantIntent(0, 1, FenceCurrent, 0); v != nil {
		t.Fatal(v)
	}
	if _, ok := h.alarm.waker.Next(); !ok {
		t.Fatal("the Waker is not armed for a due intent")
	}
	if v := h.Advance(time.Second); v != nil {
		t.Fatal(v)
	}
	lines := strings.Join(h.Trace().Lines(), "\n")
	if !strings.Contains(lines, ".timer alarm due=b0") || !strings.Contains(lines, ".alarm.b0 retry-result") {
		t.Errorf("no alarm fired by the Waker's timer actor:\n%s", lines)
	}
	var _ *scheduler.Waker = h.alarm.waker
}

// TestTimerEscapeFailsTheRun: a SUT timer the clock cannot schedule breaks
// property timer-escape at the end of the step.
func TestTimerEscapeFailsTheRun(t *testing.T) {
	h, err := NewHost(judged(Config{Seed: 1, Backends: 1, Profile: faults.Off()}))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.rt.Go("#1.sut", func() { h.clock.Tick(time.Second) })
	v := h.Step()
	if v == nil || v.Property != "timer-escape" {
		t.Fatalf("violation = %v, want timer-escape", v)
	}
}

// BenchmarkClockNativeTimer is one native timer's life as the Waker's alarm
// lives it: set, looked at (NextDue) and fired by an advance.
func BenchmarkClockNativeTimer(b *testing.B) {
	c := NewClock(Epoch)
	c.SetSpawn(func(_ string, fn func()) { fn() })
	fired := 0
	fire := func() { fired++ }
	b.ReportAllocs()
	for b.Loop() {
		c.AfterFunc(time.Second, fire)
		if _, ok := c.NextDue(); !ok {
			b.Fatal("no timer pending")
		}
		c.Advance(time.Second)
	}
	if fired != b.N {
		b.Fatalf("%d of %d timers fired", fired, b.N)
	}
}
