package workspace

import (
	"context"
	"testing"
)

// TestChanGatePrefersOpenGate: a gate that is open when Wait is called
// lets the caller through even when its context is already done, every
// time. A single select over both would pick one of the two ready cases
// at random, so a FIFO waiter whose predecessor had finished could leave
// as if cancelled (or run though cancelled) by chance; the simulation hands
// the FIFO its own parker, so this gate is only tested here.
func TestChanGatePrefersOpenGate(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for i := range 256 {
		g := ChanParker{}.NewGate()
		g.Open()
		if err := g.Wait(ctx); err != nil {
			t.Fatalf("wait %d on an open gate with a done context: %v, want nil", i, err)
		}
	}
	g := ChanParker{}.NewGate()
	if err := g.Wait(ctx); err == nil {
		t.Fatal("wait on a closed gate with a done context returned nil, want the context's error")
	}
}
