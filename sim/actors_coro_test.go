package sim

import (
	"context"
	"testing"
	"time"
)

// An actor blocked for real inside its coroutine keeps the run's driver
// waiting for it to yield. Abandon unwinds the parked actor at once, and
// once the block lifts, the blocked actor and the driver end too: nothing
// of the run outlives the block (goleak, TestMain).
func TestAbandonedBlockedActorEndsWithItsDriver(t *testing.T) {
	rt := NewRuntime(Stream(1, LabelInterleave))
	g := rt.NewGate()
	parkedStarted, parkedUnwound := false, make(chan struct{})
	blocked, release := make(chan struct{}), make(chan struct{})
	rt.Go("parked", func() {
		defer close(parkedUnwound)
		parkedStarted = true
		_ = g.Wait(context.Background())
		t.Error("the parked actor ran on after Abandon")
	})
	rt.Go("stuck", func() {
		for !parkedStarted {
			rt.Block("poll")
		}
		close(blocked)
		<-release // blocked for real: the baton stops here
		rt.Block("after")
		t.Error("the stuck actor ran on after Abandon")
	})
	runEnded := make(chan struct{})
	go func() {
		defer close(runEnded) // Run never returns: its goroutine ends by Goexit
		_, _ = rt.Run()
		t.Error("Run returned after Abandon")
	}()
	<-blocked
	rt.Abandon()
	select {
	case <-parkedUnwound:
	case <-time.After(10 * time.Second):
		t.Fatal("Abandon did not unwind the parked actor")
	}
	close(release)
	select {
	case <-runEnded:
	case <-time.After(10 * time.Second):
		t.Fatal("the driver did not end once the blocked actor came back")
	}
}
