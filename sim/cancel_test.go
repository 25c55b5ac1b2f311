package sim

import (
	"context"
	"errors"
	"testing"

	"github.com/syncsim/syncsim/faults"
)

// A parked actor honours its context: Interrupt (after the simulator
// cancelled it) wakes it and its Wait returns the context's error, while a
// gate opened later no longer wakes it; an actor not parked is left alone.
func TestInterruptWakesAParkedActorWithItsContextError(t *testing.T) {
	h, err := NewHost(judged(Config{Seed: 1, Backends: 1, Profile: faults.Off()}))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	g := h.rt.NewGate()
	ctx, cancel := context.WithCancel(context.Background())
	var got error
	waited := false
	h.rt.Go("#1.waiter.b0", func() { got = g.Wait(ctx); waited = true })
	if parked, err := h.rt.Run(); err != nil || len(parked) != 1 {
		t.Fatalf("Run = %v, %v; want the waiter parked", parked, err)
	}
	if h.rt.Interrupt("#1.nobody.b0") {
		t.Error("Interrupt of an unknown actor reported a wake")
	}
	cancel()
	if !h.rt.Interrupt("#1.waiter.b0") {
		t.Fatal("Interrupt did not find the parked waiter")
	}
	g.Open() // must not wake it a second time
	if parked, err := h.rt.Run(); err != nil || len(parked) != 0 {
		t.Fatalf("Run = %v, %v after Interrupt", parked, err)
	}
	if !waited || !errors.Is(got, context.Canceled) {
		t.Errorf("Wait returned %v (returned %t), want context.Canceled", got, waited)
	}
}
