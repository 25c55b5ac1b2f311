package schedulertest

import (
	"fmt"
	"sync"

	"github.com/syncsim/syncsim/scheduler"
)

// Bounds of the concurrency check: enough goroutines and rounds to make
// the race detector see overlapping calls, few enough for a file-backed
// store with fsync on every commit to finish in a second or two.
const (
	concurrentWorkers = 8
	concurrentRounds  = 20
)

// checkConcurrent: many goroutines call Schedule, Get and Clear on their
// own backend and on one shared backend at once. Each own backend must end
// with its last write; the shared one must hold one of the intents written
// to it, whole (no mix of two writers' fields).
func checkConcurrent(c *checker) {
	const shared = "shared"
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
	)
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		errs = append(errs, err)
	}
	own := func(w int) string { return fmt.Sprintf("worker-%d", w) }
	sharedIntent := func(w, r int) scheduler.Intent {
		in := intent(shared, r+1)
		in.RuntimeID = scheduler.Ptr(own(w))
		in.TargetCursor = scheduler.Ptr(scheduler.At(int64(w*concurrentRounds + r)))
		return in
	}
	for w := range concurrentWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range concurrentRounds {
				in := intent(own(w), r+1)
				if err := c.s.Schedule(c.ctx, in); err != nil {
					fail(fmt.Errorf("Schedule(%s): %w", Describe(in), err))
				}
				if got, ok, err := c.s.Get(c.ctx, own(w)); err != nil || !ok || !c.same(in, got) {
					fail(fmt.Errorf("Get(%q) right after Schedule = %s, %v, %v; want %s", own(w), Describe(got), ok, err, Describe(in)))
				}
				if r%3 == 2 {
					if err := c.s.Clear(c.ctx, own(w)); err != nil {
						fail(fmt.Errorf("Clear(%q): %w", own(w), err))
					}
				}
				if err := c.s.Schedule(c.ctx, sharedIntent(w, r)); err != nil {
					fail(fmt.Errorf("Schedule(shared): %w", err))
				}
				if _, _, err := c.s.Get(c.ctx, shared); err != nil {
					fail(fmt.Errorf("Get(shared): %w", err))
				}
				if l, ok := c.lister(); ok && r%5 == 0 {
					if _, err := l.List(c.ctx); err != nil {
						fail(fmt.Errorf("List: %w", err))
					}
				}
			}
		}()
	}
	wg.Wait()
	c.errs = append(c.errs, errs...)

	for w := range concurrentWorkers {
		last := concurrentRounds - 1
		if last%3 == 2 {
			c.expect("after the concurrent run", own(w), nil)
		} else {
			want := intent(own(w), last+1)
			c.expect("after the concurrent run", own(w), &want)
		}
	}
	got, ok, err := c.s.Get(c.ctx, shared)
	if err != nil || !ok {
		c.errorf("Get(shared) after the concurrent run: ok=%v err=%v", ok, err)
		return
	}
	for w := range concurrentWorkers {
		for r := range concurrentRounds {
			if c.same(sharedIntent(w, r), got) {
				return
			}
		}
	}
	c.errorf("Get(shared) after the concurrent run = %s: not any intent a writer stored", Describe(got))
}
