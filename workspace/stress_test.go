package workspace

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/syncsim/syncsim/scheduler"
)

// Stress mode: the simulator runs one actor at a time, so under it the race
// detector sees nothing (the baton's channel hand-offs order every access)
// and a missing lock passes every sweep. TestStress drives the workspace,
// its stores (memory and SQLite, intent store and local store) and the
// production scheduler.Waker with real goroutines and the real clock, all
// at once on few backends: execs in both sync modes, retries, host writes,
// pulls, and callers that give up mid-wait. Run it under -race (CI does);
// -workspace.stress sets how long each store combination runs.
var stressFor = flag.Duration("workspace.stress", 500*time.Millisecond,
	"how long TestStress drives each store combination (longer finds more)")

// stressWorkers and stressBackends: many callers on few backends, so that
// every backend's FIFO, connect and intent are contended.
const (
	stressWorkers  = 8
	stressBackends = 2
)

func TestStress(t *testing.T) {
	for _, sched := range []string{"memory", "sqlite"} {
		for _, local := range []string{"memory", "sqlite"} {
			t.Run("scheduler="+sched+"/local="+local, func(t *testing.T) {
				stress(t, openStressStores(t, sched, local))
			})
		}
	}
}

type stressStores struct {
	sched interface {
		scheduler.Scheduler
		scheduler.Lister
	}
	local Store
}

func openStressStores(t *testing.T, sched, local string) stressStores {
	var st stressStores
	dir := t.TempDir()
	if sched == "sqlite" {
		s, err := scheduler.OpenSQLite(filepath.Join(dir, "intents.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		st.sched = s
	} else {
		st.sched = scheduler.NewMemory()
	}
	if local == "sqlite" {
		s, err := OpenSQLiteStore(filepath.Join(dir, "local.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		st.local = s
	} else {
		st.local = NewMemoryStore()
	}
	return st
}

func stress(t *testing.T, st stressStores) {
	ctx := context.Background()
	clk := clock.New()
	var backends []*stressBackend
	var configs []BackendConfig
	for i := range stressBackends {
		b := &stressBackend{remote: newFakeRemote(), rng: rand.New(rand.NewPCG(uint64(i), 1)), failPermille: 100}
		backends = append(backends, b)
		configs = append(configs, BackendConfig{ID: fmt.Sprintf("b%d", i), Backend: b})
	}
	ws, err := New(Options{
		Backends:  configs,
		Clock:     clk,
		Scheduler: st.sched,
		Store:     st.local,
		Retry:     RetryOptions{InitialDelay: time.Millisecond, MaxDelay: 4 * time.Millisecond, MaxAttempts: 3},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	// The production alarm, retrying every due backend concurrently.
	waker := scheduler.NewWaker(clk, st.sched, 3, func(ctx context.Context, due []string) error {
		errs := make([]error, len(due))
		var wg sync.WaitGroup
		for i, b := range due {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = ws.RetryPendingSync(ctx, b, nil)
			}()
		}
		wg.Wait()
		return errors.Join(errs...)
	})
	waker.RetryDelay = time.Millisecond
	stopped := false
	defer func() {
		if !stopped {
			waker.Stop()
		}
	}()

	deadline := time.Now().Add(*stressFor)
	var wg sync.WaitGroup
	var opsMu sync.Mutex
	ops := map[string]int{}
	for w := range stressWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 2))
			for i := 0; time.Now().Before(deadline); i++ {
				kind := stressOp(ctx, ws, r, fmt.Sprintf("b%d", r.IntN(stressBackends)), w, i)
				opsMu.Lock()
				ops[kind]++
				opsMu.Unlock()
				_ = waker.Rearm(ctx) // the Waker's contract: after writes it did not cause
			}
		}()
	}
	wg.Wait()
	waker.Stop()
	stopped = true
	t.Logf("ops: %v", ops)

	// Quiescent and fault-free: every backend must converge.
	for _, b := range backends {
		b.setFaults(0)
	}
	for i, b := range backends {
		id := fmt.Sprintf("b%d", i)
		if _, err := ws.RetryPendingSync(ctx, id, nil); err != nil {
			t.Errorf("%s: final retry: %v", id, err)
		}
		if _, err := ws.Push(ctx, id); err != nil {
			t.Fatalf("%s: final push: %v", id, err)
		}
		if _, err := ws.Pull(ctx, id); err != nil {
			t.Fatalf("%s: final pull: %v", id, err)
		}
		local, err := ws.Files(id)
		if err != nil {
			t.Fatal(err)
		}
		if remote := b.files(); !sameFiles(local, remote) {
			t.Errorf("%s: local files differ from the remote after the fault-free tail:\nlocal  %v\nremote %v", id, local, remote)
		}
	}
	intents, err := st.sched.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range intents {
		if in.Attempt < 1 || in.Attempt > 3 {
			t.Errorf("intent %s: attempt outside 1..3", in)
		}
	}
}

// stressOp runs one random operation and names its kind. Errors are the
// point (injected faults, cancelled callers): only a panic, a race or a
// final divergence fails the test.
func stressOp(ctx context.Context, ws *Workspace, r *rand.Rand, b string, worker, i int) string {
	switch r.IntN(7) {
	case 0:
		ws.Exec(ctx, "write", ExecOptions{Backend: b, Sync: SyncWait})
		return "exec-wait"
	case 1:
		ws.Exec(ctx, "write", ExecOptions{Backend: b, Sync: SyncDefer})
		return "exec-defer"
	case 2:
		ws.RetryPendingSync(ctx, b, nil)
		return "retry"
	case 3:
		ws.WriteFile(b, fmt.Sprintf("/host/%d-%d", worker, i), []byte(fmt.Sprint(worker, i)))
		return "host-write"
	case 4:
		ws.Pull(ctx, b)
		return "pull"
	case 5:
		ws.Push(ctx, b)
		return "push"
	default:
		// A caller that gives up: cancelled after a random few
		// microseconds, often while it waits in the FIFO.
		cctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		after := time.Duration(r.IntN(50)) * time.Microsecond
		go func() {
			defer close(done)
			time.Sleep(after)
			cancel()
		}()
		if r.IntN(2) == 0 {
			ws.Exec(cctx, "write", ExecOptions{Backend: b, Sync: SyncWait})
		} else {
			ws.RetryPendingSync(cctx, b, nil)
		}
		<-done
		return "cancelled"
	}
}

// stressBackend is a fakeRemote behind a mutex, failing a drawn share of
// its calls (connect, exec, fetch, stream reads, watermarks, push).
type stressBackend struct {
	mu           sync.Mutex
	remote       *fakeRemote
	rng          *rand.Rand
	failPermille int
	writes       int
}

func (b *stressBackend) setFaults(permille int) {
	b.mu.Lock()
	b.failPermille = permille
	b.mu.Unlock()
}

func (b *stressBackend) files() []File {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.remote.files()
}

// fault draws one call's failure; the caller holds mu.
func (b *stressBackend) fault(where string) error {
	if b.rng.IntN(1000) < b.failPermille {
		return fmt.Errorf("stress %s: %w", where, errInjected)
	}
	return nil
}

func (b *stressBackend) Connect(context.Context) (Handle, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.fault("connect"); err != nil {
		return nil, err
	}
	return stressHandle{b}, nil
}

type stressHandle struct{ b *stressBackend }

func (h stressHandle) RuntimeID() (string, bool) { return "rt", true }
func (h stressHandle) SyncMode() SyncMode        { return SyncRemote }
func (h stressHandle) Sync() SyncRPC             { return stressRPC(h) }
func (h stressHandle) Close() error              { return nil }

// Exec makes one container-side write (paths repeat, so later writes
// overwrite earlier ones) and exits 0.
func (h stressHandle) Exec(context.Context, string) (EventStream, error) {
	b := h.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.fault("exec"); err != nil {
		return nil, err
	}
	b.writes++
	b.remote.write(fmt.Sprintf("/c/%d", b.writes%5), fmt.Sprint(b.writes))
	return &fakeEvents{events: []Event{{Kind: EventExit}}}, nil
}

type stressRPC stressHandle

func (r stressRPC) FetchChanges(ctx context.Context, req FetchRequest) (*FetchEnvelope, error) {
	b := r.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.fault("fetch"); err != nil {
		return nil, err
	}
	env, err := b.remote.FetchChanges(ctx, req)
	if err == nil {
		env.Changes = &stressStream{b: b, inner: env.Changes}
	}
	return env, err
}

func (r stressRPC) Watermarks(ctx context.Context, req WatermarksRequest) (Watermarks, error) {
	b := r.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.fault("watermarks"); err != nil {
		return Watermarks{}, err
	}
	return b.remote.Watermarks(ctx, req)
}

func (r stressRPC) Push(ctx context.Context, req PushRequest) (PushResult, error) {
	b := r.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.fault("push"); err != nil {
		return PushResult{}, err
	}
	return b.remote.Push(ctx, req)
}

// stressStream reads the remote's lazily materialised stream under the
// backend's lock.
type stressStream struct {
	b     *stressBackend
	inner ChangeStream
}

func (s *stressStream) Next(ctx context.Context) (Change, error) {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	if err := s.b.fault("stream"); err != nil {
		return Change{}, err
	}
	return s.inner.Next(ctx)
}

func (s *stressStream) Close() error {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	return s.inner.Close()
}
