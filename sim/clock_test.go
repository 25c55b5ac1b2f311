package sim

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benbjohnson/clock"
)

var clockStart = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

func TestClockNowReadsInTheStartsLocation(t *testing.T) {
	loc := time.FixedZone("X", 3600)
	c := NewClock(clockStart.In(loc).Add(123 * time.Nanosecond))
	now := c.Now()
	if !now.Equal(clockStart.Add(123*time.Nanosecond)) || now.Location() != loc {
		t.Errorf("Now = %v (%v), want %v in X", now, now.Location(), clockStart)
	}
	c = NewClock(clockStart.In(loc))
	c.Advance(90 * time.Second)
	if got := c.Since(clockStart); got != 90*time.Second {
		t.Errorf("Since(start) = %v, want 90s", got)
	}
	if got := c.Until(clockStart.Add(100 * time.Second)); got != 10*time.Second {
		t.Errorf("Until = %v, want 10s", got)
	}
}

// TestClockTimerOrder: timers fire by due time, then registration order, with
// Now at each due time; cancelled timers never fire; timers added while
// firing fire in the same advance when due.
func TestClockTimerOrder(t *testing.T) {
	c := NewClock(clockStart)
	var got []string
	rec := func(name string) func() {
		return func() {
			got = append(got, name+"@"+strconv.Itoa(int(c.Since(clockStart)/time.Second)))
		}
	}
	c.At(clockStart.Add(5*time.Second), rec("b"))
	c.At(clockStart.Add(2*time.Second), rec("a"))
	c.At(clockStart.Add(5*time.Second), rec("c"))
	cancel := c.At(clockStart.Add(3*time.Second), rec("cancelled"))
	c.At(clockStart.Add(4*time.Second), func() {
		rec("d")()
		c.At(c.Now(), rec("d-now"))                   // same instant: after d, this advance
		c.At(clockStart.Add(6*time.Second), rec("e")) // due within the advance
		c.At(clockStart.Add(60*time.Second), rec("f"))
	})
	cancel()
	cancel() // idempotent

	if due, ok := c.NextDue(); !ok || !due.Equal(clockStart.Add(2*time.Second)) {
		t.Errorf("NextDue = %v %v, want +2s", due, ok)
	}
	c.AdvanceTo(clockStart.Add(10 * time.Second))
	want := []string{"a@2", "d@4", "d-now@4", "b@5", "c@5", "e@6"}
	if !slices.Equal(got, want) {
		t.Errorf("fired %v, want %v", got, want)
	}
	if now := c.Now(); !now.Equal(clockStart.Add(10 * time.Second)) {
		t.Errorf("Now after AdvanceTo = %v, want +10s", now)
	}
	if due, ok := c.NextDue(); !ok || !due.Equal(clockStart.Add(60*time.Second)) || c.Pending() != 1 {
		t.Errorf("NextDue = %v %v, Pending %d; want +60s, 1", due, ok, c.Pending())
	}
}

func TestClockPastTimerDoesNotMoveTimeBack(t *testing.T) {
	c := NewClock(clockStart)
	c.Advance(time.Minute)
	var at time.Time
	c.At(clockStart, func() { at = c.Now() })
	c.Advance(0)
	if !at.Equal(clockStart.Add(time.Minute)) {
		t.Errorf("past timer saw Now = %v, want +1m", at)
	}
}

func TestClockPanics(t *testing.T) {
	c := NewClock(clockStart)
	c.Advance(time.Second)
	for name, fn := range map[string]func(){
		"AdvanceTo back": func() { c.AdvanceTo(clockStart) },
		"Advance neg":    func() { c.Advance(-time.Nanosecond) },
		"Sleep":          func() { c.Sleep(time.Millisecond) },
	} {
		func() {
			defer func() {
				p := recover()
				if p == nil || !strings.HasPrefix(p.(string), "sim: Clock.") {
					t.Errorf("%s: recovered %v, want a sim: Clock panic", name, p)
				}
			}()
			fn()
		}()
	}
	c.Sleep(0) // returns
}

func TestClockFireBound(t *testing.T) {
	c := NewClock(clockStart)
	var rearm func()
	rearm = func() { c.At(c.Now(), rearm) }
	c.At(clockStart, rearm)
	defer func() {
		p, _ := recover().(string)
		if !strings.Contains(p, "MaxFiresPerAdvance") {
			t.Errorf("recovered %q, want a panic naming MaxFiresPerAdvance", p)
		}
	}()
	c.Advance(time.Second)
}

// TestClockCompatTimers: the clock.Clock channel timers work off virtual
// time (without a spawn function their sends run on the advancing
// goroutine), and are counted.
func TestClockCompatTimers(t *testing.T) {
	c := NewClock(clockStart)
	c.Advance(time.Hour)
	if c.TimerUses() != 0 {
		t.Fatalf("TimerUses = %d before any use", c.TimerUses())
	}
	tm := c.Timer(10 * time.Second)
	after := c.After(20 * time.Second)
	var sawSim time.Time
	c.At(clockStart.Add(time.Hour+15*time.Second), func() { sawSim = c.Now() })
	c.Advance(15 * time.Second)
	select {
	case at := <-tm.C:
		if !at.Equal(clockStart.Add(time.Hour + 10*time.Second)) {
			t.Errorf("Timer fired at %v, want +1h10s", at)
		}
	default:
		t.Error("Timer(10s) did not fire after advancing 15s")
	}
	select {
	case <-after:
		t.Error("After(20s) fired after 15s")
	default:
	}
	if !sawSim.Equal(clockStart.Add(time.Hour + 15*time.Second)) {
		t.Errorf("sim timer saw %v", sawSim)
	}
	c.Advance(5 * time.Second)
	if at := <-after; !at.Equal(clockStart.Add(time.Hour + 20*time.Second)) {
		t.Errorf("After fired at %v, want +1h20s", at)
	}
	if c.TimerUses() != 2 {
		t.Errorf("TimerUses = %d, want 2", c.TimerUses())
	}
}

var _ clock.Clock = NewClock(clockStart)

var sinkTime time.Time

func BenchmarkClockNow(b *testing.B) {
	c := NewClock(clockStart)
	for range b.N {
		sinkTime = c.Now()
	}
}

// BenchmarkClockAdvanceTo: 1024 pending timers, one fired and re-armed per
// advance, so the heap stays full.
func BenchmarkClockAdvanceTo(b *testing.B) {
	const pending = 1024
	c := NewClock(clockStart)
	var fn func()
	fn = func() { c.At(c.Now().Add(pending*time.Millisecond), fn) }
	for i := range pending {
		c.At(clockStart.Add(time.Duration(i+1)*time.Millisecond), fn)
	}
	b.ResetTimer()
	for range b.N {
		c.Advance(time.Millisecond)
	}
}

// BenchmarkMockAdd is the baseline the virtual clock avoids: every
// clock.Mock.Add sleeps 1 ms of real time.
func BenchmarkMockAdd(b *testing.B) {
	m := clock.NewMock()
	for range b.N {
		m.Add(time.Millisecond)
	}
}

func TestDrawStartShiftsUnderAMillisecondAndLocates(t *testing.T) {
	shifted, zoned := 0, 0
	for seed := uint64(1); seed <= 400; seed++ {
		s := drawStart(seed)
		d := s.Sub(Epoch)
		if d < 0 || d >= time.Millisecond {
			t.Fatalf("seed %d: start %v is %v from Epoch, want [0, 1ms)", seed, s, d)
		}
		if d > 0 {
			shifted++
		}
		if s.Location() != time.UTC {
			zoned++
		}
		if again := drawStart(seed); again != s {
			t.Fatalf("seed %d: drawStart is not a function of the seed: %v then %v", seed, s, again)
		}
	}
	if shifted < 100 || zoned < 100 {
		t.Fatalf("of 400 seeds %d shifted and %d zoned: the draw is not exercising either", shifted, zoned)
	}
}
