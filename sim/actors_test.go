package sim

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/workspace"
)

// scenario runs a small concurrent workload under a runtime seeded with seed
// and returns every scheduling decision and every step the actors took, in
// order. It exercises Block, gates used as a FIFO, actors spawning actors and
// actors finishing.
func scenario(t *testing.T, seed uint64) []string {
	t.Helper()
	rt := NewRuntime(Stream(seed, LabelInterleave))
	var log []string
	rt.OnSwitch(func(from, to, point string) {
		log = append(log, "switch "+from+">"+to+" @"+point)
	})
	q := newFIFO(rt)
	for i := range 4 {
		name := "op" + strconv.Itoa(i)
		rt.Go(name, func() {
			for step := range 3 {
				rt.Block("backend.call")
				log = append(log, name+" step "+strconv.Itoa(step))
			}
			q.do(func() {
				log = append(log, name+" enter")
				rt.Block("store.get")
				log = append(log, name+" leave")
			})
			if i%2 == 0 {
				child := name + ".child"
				rt.Go(child, func() {
					rt.Block("child")
					log = append(log, child+" done")
				})
			}
		})
	}
	parked, err := rt.Run()
	if err != nil || len(parked) > 0 {
		t.Fatalf("seed %d: Run = %v, %v", seed, parked, err)
	}
	return log
}

// fifo is the shape of the workspace's per-backend FIFO: each entry waits for
// the gate of the entry before it and opens its own when done.
type fifo struct {
	rt   *Runtime
	tail interface {
		Wait(context.Context) error
		Open()
	}
}

func newFIFO(rt *Runtime) *fifo {
	g := rt.NewGate()
	g.Open()
	return &fifo{rt: rt, tail: g}
}

func (f *fifo) do(fn func()) {
	prev, mine := f.tail, f.rt.NewGate()
	f.tail = mine
	defer mine.Open()
	if err := prev.Wait(context.Background()); err != nil {
		panic(err)
	}
	fn()
}

// TestRuntimeDeterministic: the same seed gives the same interleaving, step
// for step, on repeated runs and under GOMAXPROCS 1 and 8 (and under -race
// when the suite runs with it).
func TestRuntimeDeterministic(t *testing.T) {
	const seeds = 200
	want := make([][]string, seeds)
	distinct := map[string]bool{}
	for _, procs := range []int{1, 8, 1, 8} {
		prev := runtime.GOMAXPROCS(procs)
		for seed := range uint64(seeds) {
			got := scenario(t, seed)
			if want[seed] == nil {
				want[seed] = got
				distinct[strings.Join(got, "\n")] = true
				continue
			}
			if i, a, b, differ := FirstDiff(want[seed], got); differ {
				t.Errorf("seed %d GOMAXPROCS %d: line %d differs: %q vs %q", seed, procs, i, a, b)
			}
		}
		runtime.GOMAXPROCS(prev)
	}
	if len(distinct) < seeds/2 {
		t.Errorf("only %d distinct interleavings over %d seeds: the stream is not reaching the choice", len(distinct), seeds)
	}
}

// TestRuntimeGateFIFO: the FIFO built on gates never lets two entries
// overlap and runs them in enqueue order, whatever the interleaving.
func TestRuntimeGateFIFO(t *testing.T) {
	for seed := range uint64(100) {
		rt := NewRuntime(Stream(seed, LabelInterleave))
		q := newFIFO(rt)
		var enqueued, order []string
		inside := 0
		for i := range 5 {
			name := "op" + strconv.Itoa(i)
			rt.Go(name, func() {
				rt.Block("spawned")               // let the interleave shuffle enqueue order
				enqueued = append(enqueued, name) // no blocking point before q.do enqueues
				q.do(func() {
					inside++
					if inside != 1 {
						t.Errorf("seed %d: %s entered with %d inside", seed, name, inside-1)
					}
					order = append(order, name)
					rt.Block("work")
					rt.Block("work")
					inside--
				})
			})
		}
		if parked, err := rt.Run(); err != nil || parked != nil {
			t.Fatalf("seed %d: Run = %v, %v", seed, parked, err)
		}
		if len(order) != 5 || !slices.Equal(order, enqueued) {
			t.Errorf("seed %d: ran %v, enqueued %v", seed, order, enqueued)
		}
	}
}

// TestRuntimeGateHandoff: Open marks waiters runnable in wait order without
// switching; Wait on an open gate returns at once.
func TestRuntimeGateHandoff(t *testing.T) {
	rt := NewRuntime(Stream(1, LabelInterleave))
	g := rt.NewGate()
	var log []string
	rt.Go("opener", func() {
		// Let both waiters park first: only they are runnable until they do.
		for len(log) < 2 {
			rt.Block("poll")
		}
		g.Open()
		log = append(log, "opened") // Open did not switch
		g.Open()                    // idempotent
	})
	for _, n := range []string{"w1", "w2"} {
		rt.Go(n, func() {
			log = append(log, n+" waits")
			if err := g.Wait(context.Background()); err != nil {
				t.Errorf("%s: Wait = %v", n, err)
			}
			log = append(log, n+" woke")
			if err := g.Wait(context.Background()); err != nil { // open: at once
				t.Errorf("%s: second Wait = %v", n, err)
			}
		})
	}
	if parked, err := rt.Run(); err != nil || parked != nil {
		t.Fatalf("Run = %v, %v", parked, err)
	}
	if i := slices.Index(log, "opened"); i != 2 {
		t.Errorf("log %v: want both waits, then opened, then wakes", log)
	}
}

func TestRuntimeGateWaitEdges(t *testing.T) {
	rt := NewRuntime(Stream(1, LabelInterleave))
	g := rt.NewGate()
	if err := g.Wait(context.Background()); !errors.Is(err, ErrNotActor) {
		t.Errorf("driver Wait on closed gate = %v, want ErrNotActor", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rt.Go("a", func() {
		if err := g.Wait(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("Wait with done ctx = %v, want context.Canceled", err)
		}
	})
	if parked, err := rt.Run(); err != nil || parked != nil {
		t.Fatalf("Run = %v, %v", parked, err)
	}
	g.Open()
	if err := g.Wait(ctx); err != nil {
		t.Errorf("Wait on open gate with done ctx = %v, want nil", err)
	}
}

// TestRuntimeDeadlockReport: Run returns the parked actors, sorted; a later
// Open outside the runtime (a sim timer) lets the next Run finish them.
func TestRuntimeDeadlockReport(t *testing.T) {
	rt := NewRuntime(Stream(3, LabelInterleave))
	g := rt.NewGate()
	finished := 0
	for _, n := range []string{"zeta", "alpha", "mid"} {
		rt.Go(n, func() {
			g.Wait(context.Background())
			finished++
		})
	}
	rt.Go("done", func() { rt.Block("x") })
	parked, err := rt.Run()
	if err != nil || !slices.Equal(parked, []string{"alpha", "mid", "zeta"}) {
		t.Fatalf("Run = %v, %v; want [alpha mid zeta], nil", parked, err)
	}
	g.Open()
	if parked, err := rt.Run(); err != nil || parked != nil || finished != 3 {
		t.Fatalf("second Run = %v, %v, finished %d", parked, err, finished)
	}
}

func TestRuntimeOutsideActor(t *testing.T) {
	rt := NewRuntime(Stream(1, LabelInterleave))
	rt.Block("driver") // returns at once
	if a := rt.Actor(); a != "" {
		t.Errorf("Actor() outside = %q", a)
	}
	var inside string
	rt.Go("me", func() { inside = rt.Actor() })
	rt.Run()
	if inside != "me" || rt.Actor() != "" {
		t.Errorf("Actor() inside = %q, after = %q", inside, rt.Actor())
	}
	if parked, err := rt.Run(); parked != nil || err != nil { // nothing to run
		t.Errorf("empty Run = %v, %v", parked, err)
	}
}

// TestRuntimeKill: parked, runnable and unstarted actors are all unwound;
// defers run, nothing after the blocking point does; new actors run after.
func TestRuntimeKill(t *testing.T) {
	for seed := range uint64(20) {
		rt := NewRuntime(Stream(seed, LabelInterleave))
		g := rt.NewGate()
		var log []string
		started := 0
		rt.Go("parked", func() {
			defer func() { log = append(log, "parked defer") }()
			started++
			g.Wait(context.Background())
			log = append(log, "parked after")
		})
		rt.Go("runnable", func() {
			defer func() {
				log = append(log, "runnable defer")
				rt.Block("in defer") // returns at once while dying
				if err := rt.NewGate().Wait(context.Background()); !errors.Is(err, ErrKilled) {
					t.Errorf("Wait while dying = %v, want ErrKilled", err)
				}
			}()
			started++
			for {
				rt.Block("spin")
				if len(log) > 100 {
					log = append(log, "runnable escaped")
					return
				}
			}
		})
		rt.Go("stopper", func() {
			defer func() { log = append(log, "stopper defer") }()
			for started < 2 {
				rt.Block("poll")
			}
			rt.Go("unstarted", func() { log = append(log, "unstarted ran") })
			rt.Stop()
			rt.Block("stop") // Stop takes effect here
			log = append(log, "stopper after")
		})
		parked, err := rt.Run()
		if err != nil || !slices.Equal(parked, []string{"parked"}) {
			t.Fatalf("seed %d: Run = %v, %v; want [parked], nil", seed, parked, err)
		}
		if live := rt.Live(); !slices.Equal(live, []string{"parked", "runnable", "stopper", "unstarted"}) {
			t.Fatalf("seed %d: live before Kill %v", seed, live)
		}
		rt.Kill()
		if got := rt.Live(); got != nil {
			t.Fatalf("seed %d: live after Kill: %v", seed, got)
		}
		// Kill unwinds in spawn order.
		if want := []string{"parked defer", "runnable defer", "stopper defer"}; !slices.Equal(log, want) {
			t.Errorf("seed %d: log %v, want %v", seed, log, want)
		}
		g.Open() // a gate of the dead generation: must not revive anyone
		ran := false
		rt.Go("next generation", func() { ran = true; rt.Block("x") })
		if parked, err := rt.Run(); err != nil || parked != nil || !ran {
			t.Errorf("seed %d: after Kill: Run = %v, %v, ran %v", seed, parked, err, ran)
		}
	}
}

func TestRuntimePanicReported(t *testing.T) {
	rt := NewRuntime(Stream(5, LabelInterleave))
	unwound := false
	rt.Go("bystander", func() {
		defer func() { unwound = true }()
		for {
			rt.Block("spin")
		}
	})
	boom := errors.New("boom")
	rt.Go("bad", func() {
		rt.Block("before")
		panic(fmt.Errorf("wrapped: %w", boom))
	})
	live, err := rt.Run()
	var pe *ActorPanicError
	if !errors.As(err, &pe) || pe.Actor != "bad" || !errors.Is(err, boom) || len(pe.Stack) == 0 {
		t.Fatalf("Run err = %v, want *ActorPanicError for bad wrapping boom", err)
	}
	if !strings.Contains(err.Error(), `actor "bad" panicked`) {
		t.Errorf("message %q does not name the actor", err)
	}
	if !slices.Equal(live, []string{"bystander"}) || !unwound || rt.Live() != nil {
		t.Errorf("live %v, unwound %v, Live after %v", live, unwound, rt.Live())
	}
}

func TestRuntimeGoexitReported(t *testing.T) {
	rt := NewRuntime(Stream(5, LabelInterleave))
	rt.Go("failnow", func() { runtime.Goexit() })
	if _, err := rt.Run(); !errors.Is(err, ErrActorGoexit) || !strings.Contains(err.Error(), "failnow") {
		t.Errorf("Run err = %v, want ErrActorGoexit naming failnow", err)
	}
}

func TestRuntimeMaxSwitches(t *testing.T) {
	rt := NewRuntime(Stream(5, LabelInterleave))
	rt.SetMaxSwitches(50)
	for _, n := range []string{"a", "b"} {
		rt.Go(n, func() {
			for {
				rt.Block("livelock")
			}
		})
	}
	live, err := rt.Run()
	if !errors.Is(err, ErrMaxSwitches) || !strings.Contains(err.Error(), "50") || !strings.Contains(err.Error(), "SetMaxSwitches") {
		t.Errorf("Run err = %v, want ErrMaxSwitches naming 50 and SetMaxSwitches", err)
	}
	if !slices.Equal(live, []string{"a", "b"}) || rt.Live() != nil {
		t.Errorf("live %v, after %v", live, rt.Live())
	}
}

func TestRuntimeHookPanic(t *testing.T) {
	rt := NewRuntime(Stream(5, LabelInterleave))
	n := 0
	rt.OnSwitch(func(_, _, _ string) {
		if n++; n == 3 {
			panic("hook")
		}
	})
	rt.Go("a", func() {
		for {
			rt.Block("x")
		}
	})
	if _, err := rt.Run(); err == nil || !strings.Contains(err.Error(), "OnSwitch hook panicked: hook") {
		t.Errorf("Run err = %v", err)
	}
}

func TestRuntimeKillDeferPanic(t *testing.T) {
	rt := NewRuntime(Stream(5, LabelInterleave))
	other := false
	rt.Go("a", func() {
		defer panic("in defer")
		rt.NewGate().Wait(context.Background())
	})
	rt.Go("b", func() {
		defer func() { other = true }()
		rt.NewGate().Wait(context.Background())
	})
	if parked, err := rt.Run(); err != nil || len(parked) != 2 {
		t.Fatalf("Run = %v, %v", parked, err)
	}
	func() {
		defer func() {
			pe, ok := recover().(*ActorPanicError)
			if !ok || pe.Actor != "a" {
				t.Errorf("Kill panicked with %v, want *ActorPanicError for a", pe)
			}
		}()
		rt.Kill()
	}()
	if !other || rt.Live() != nil {
		t.Errorf("b unwound %v, live %v", other, rt.Live())
	}
}

// BenchmarkBlock measures one Block between two always-runnable actors:
// ns/op is per scheduling decision (half stay on the same actor, which costs
// no hand-off); ns/switch is per actual goroutine hand-off.
func BenchmarkBlock(b *testing.B) {
	rt := NewRuntime(Stream(1, LabelInterleave))
	rt.SetMaxSwitches(0)
	rt.SetLivelockSwitches(0) // two actors that never finish: a livelock by design
	switches := 0
	rt.OnSwitch(func(from, to, _ string) {
		if from != to {
			switches++
		}
	})
	n := b.N
	for _, name := range []string{"a", "b"} {
		rt.Go(name, func() {
			for n > 0 {
				n--
				rt.Block("bench")
			}
		})
	}
	b.ResetTimer()
	if _, err := rt.Run(); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if switches > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(switches), "ns/switch")
	}
}

// TestRuntimeFailedRunJoinsUnwindPanic: a Run that fails still unwinds the
// others, and a panic while unwinding joins the Run's error rather than
// escaping as a panic.
func TestRuntimeFailedRunJoinsUnwindPanic(t *testing.T) {
	rt := NewRuntime(Stream(5, LabelInterleave))
	rt.Go("parked", func() {
		defer panic("in defer")
		rt.NewGate().Wait(context.Background())
	})
	rt.Go("bad", func() {
		rt.Block("x")
		panic("boom")
	})
	live, err := rt.Run()
	if err == nil || !strings.Contains(err.Error(), `actor "bad" panicked: boom`) ||
		!strings.Contains(err.Error(), `actor "parked" panicked: in defer`) {
		t.Errorf("Run err = %v, want both panics", err)
	}
	if !slices.Equal(live, []string{"parked"}) || rt.Live() != nil {
		t.Errorf("live %v, after %v", live, rt.Live())
	}
}

// TestRuntimeGateWatch: the gate watch hears each actor that parks, with
// the actor that made the gate, and nothing for a Wait on an open gate.
func TestRuntimeGateWatch(t *testing.T) {
	rt := NewRuntime(Stream(1, LabelInterleave))
	var heard []string
	rt.SetGateWatch(func(waiter, maker string) { heard = append(heard, waiter+"<"+maker) })
	var g workspace.Gate
	rt.Go("maker", func() {
		g = rt.NewGate()
		for len(heard) == 0 {
			rt.Block("poll")
		}
		g.Open()
	})
	rt.Go("waiter", func() {
		for g == nil {
			rt.Block("poll")
		}
		_ = g.Wait(context.Background())
		_ = g.Wait(context.Background()) // open: not a park
	})
	if _, err := rt.Run(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(heard, []string{"waiter<maker"}) {
		t.Errorf("heard %v, want [waiter<maker]", heard)
	}
}
