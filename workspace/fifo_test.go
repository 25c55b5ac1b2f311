package workspace

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// enqueue starts serialize(backend, fn) on a new goroutine and returns once
// the entry is the backend's tail, so arrival order is the call order.
func enqueue(t *testing.T, w *Workspace, wg *sync.WaitGroup, backend string, fn func() (int, error), out chan<- error) {
	t.Helper()
	w.mu.Lock()
	before := w.tails[backend]
	w.mu.Unlock()
	wg.Go(func() {
		_, err := serialize(context.Background(), w, backend, fn)
		if out != nil {
			out <- err
		}
	})
	deadline := time.Now().Add(5 * time.Second)
	for {
		w.mu.Lock()
		after := w.tails[backend]
		w.mu.Unlock()
		if after != before {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("entry never enqueued")
		}
		time.Sleep(50 * time.Microsecond)
	}
}

func TestFIFOStrictArrivalOrderPerBackend(t *testing.T) {
	h := newHarness(t, &fakeBackend{}, 0)
	w := h.ws
	var mu sync.Mutex
	var order []int
	running := 0
	release := make(chan struct{})
	var wg sync.WaitGroup
	for i := range 32 {
		enqueue(t, w, &wg, "sandbox", func() (int, error) {
			mu.Lock()
			running++
			if running != 1 {
				t.Errorf("entry %d overlaps another", i)
			}
			order = append(order, i)
			mu.Unlock()
			if i == 0 {
				<-release // hold the queue while the rest arrive
			}
			mu.Lock()
			running--
			mu.Unlock()
			return i, nil
		}, nil)
	}
	close(release)
	wg.Wait()
	want := make([]int, 32)
	for i := range want {
		want[i] = i
	}
	if diff := cmp.Diff(want, order); diff != "" {
		t.Fatalf("order (-want +got):\n%s", diff)
	}
}

func TestFIFOFailuresAreNotContagious(t *testing.T) {
	h := newHarness(t, &fakeBackend{}, 0)
	boom := errors.New("boom")
	_, err1 := serialize(ctx0, h.ws, "sandbox", func() (int, error) { return 0, boom })
	v, err2 := serialize(ctx0, h.ws, "sandbox", func() (int, error) { return 7, nil })
	if !errors.Is(err1, boom) || err2 != nil || v != 7 {
		t.Fatalf("got %v / %d, %v", err1, v, err2)
	}
}

func TestFIFODifferentBackendsAreIndependent(t *testing.T) {
	h := newHarness(t, &fakeBackend{}, 0)
	release := make(chan struct{})
	var wg sync.WaitGroup
	enqueue(t, h.ws, &wg, "a", func() (int, error) { <-release; return 0, nil }, nil)
	// "b" runs while "a" is held.
	if _, err := serialize(ctx0, h.ws, "b", func() (int, error) { return 1, nil }); err != nil {
		t.Fatal(err)
	}
	close(release)
	wg.Wait()
}

func TestFIFOCancelledWaiterKeepsOrder(t *testing.T) {
	h := newHarness(t, &fakeBackend{}, 0)
	w := h.ws
	release := make(chan struct{})
	var running, maxRunning int
	var mu sync.Mutex
	track := func() (int, error) {
		mu.Lock()
		running++
		maxRunning = max(maxRunning, running)
		mu.Unlock()
		time.Sleep(time.Millisecond)
		mu.Lock()
		running--
		mu.Unlock()
		return 0, nil
	}
	var wg sync.WaitGroup
	enqueue(t, w, &wg, "sandbox", func() (int, error) { <-release; return track() }, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancelled := make(chan error, 1)
	w.mu.Lock()
	before := w.tails["sandbox"]
	w.mu.Unlock()
	wg.Go(func() {
		_, err := serialize(ctx, w, "sandbox", func() (int, error) { t.Error("cancelled entry ran"); return 0, nil })
		cancelled <- err
	})
	for {
		w.mu.Lock()
		moved := w.tails["sandbox"] != before
		w.mu.Unlock()
		if moved {
			break
		}
		time.Sleep(50 * time.Microsecond)
	}
	enqueue(t, w, &wg, "sandbox", track, nil)
	cancel()
	if err := <-cancelled; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled waiter err = %v", err)
	}
	close(release)
	wg.Wait()
	if maxRunning != 1 {
		t.Fatalf("entries overlapped after a cancelled waiter (max %d running)", maxRunning)
	}
}
