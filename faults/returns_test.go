package faults

import (
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/scheduler"
	"github.com/syncsim/syncsim/workspace"
)

// sidesHooks records every blocking point, before ("> point") and after
// ("< point") each call, and what the wrapped store held at each.
type sidesHooks struct {
	log []string
	// onReturn, when set, runs at every post-return point.
	onReturn func(point string)
}

func (h *sidesHooks) Block(point string) { h.log = append(h.log, "> "+point) }
func (h *sidesHooks) Actor() string      { return "a" }
func (h *sidesHooks) Return(point string) {
	h.log = append(h.log, "< "+point)
	if h.onReturn != nil {
		h.onReturn(point)
	}
}

// pairs checks that log is a sequence of "> p" "< p" pairs and returns the
// points in order.
func pairs(t *testing.T, log []string) []string {
	t.Helper()
	if len(log)%2 != 0 {
		t.Fatalf("odd blocking points: %q", log)
	}
	var out []string
	for i := 0; i < len(log); i += 2 {
		in, ret := log[i], log[i+1]
		if !strings.HasPrefix(in, "> ") || ret != "< "+in[2:] {
			t.Fatalf("points %d and %d are %q and %q: want a point before the call and the same after it", i, i+1, in, ret)
		}
		out = append(out, in[2:])
	}
	return out
}

// TestIntentStoreCallsBlockOnBothSides: Get, Schedule, Clear and List
// block before they run and again after they return, an injected failure
// included; List is still not recorded.
func TestIntentStoreCallsBlockOnBothSides(t *testing.T) {
	hooks := &sidesHooks{}
	mem := scheduler.NewMemory()
	off := Off()
	s := NewScheduler(mem, hooks, rand.New(rand.NewPCG(1, 1)), &off)
	if err := s.Schedule(ctx, intent(1)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Get(ctx, "b1"); err != nil {
		t.Fatal(err)
	}
	// The listing is read before the point after it: a write made there
	// (by whatever runs in between) is not in it.
	hooks.onReturn = func(point string) {
		if point == "store.list" {
			hooks.onReturn = nil
			if err := mem.Clear(ctx, "b1"); err != nil {
				t.Fatal(err)
			}
		}
	}
	got, err := s.List(ctx)
	if err != nil || len(got) != 1 {
		t.Fatalf("List = %v, %v: want the intent stored before its point after", got, err)
	}
	if err := s.Clear(ctx, "b1"); err != nil {
		t.Fatal(err)
	}
	all := AllOn()
	failing := NewScheduler(mem, hooks, rand.New(rand.NewPCG(1, 1)), &all)
	if !failsWithin(100, func() error { return failing.Schedule(ctx, intent(1)) }) {
		t.Fatal("no schedule failed in 100 calls with every fault on")
	}
	want := []string{"store.schedule", "store.get", "store.list", "store.clear"}
	if got := pairs(t, hooks.log); !slices.Equal(got[:len(want)], want) || !slices.ContainsFunc(got[len(want):], func(p string) bool { return p == "store.schedule" }) {
		t.Errorf("blocking points %q, want %q and then the failing schedules", got, want)
	}
	for _, c := range s.Calls() {
		if c.Op == StoreOpList {
			t.Errorf("List recorded: %v", c)
		}
	}
}

// TestLocalStoreCallsBlockOnBothSides: every local-store call blocks before
// and after, an injected failure included.
func TestLocalStoreCallsBlockOnBothSides(t *testing.T) {
	hooks := &sidesHooks{}
	off := Off()
	s := NewLocalStore(workspace.NewMemoryStore(), hooks, rand.New(rand.NewPCG(1, 1)), &off, nil)
	if _, err := s.WriteFile("b1", "/a", []byte("x"), false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Files("b1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FetchCursor("b1"); err != nil {
		t.Fatal(err)
	}
	on := Only(LocalIO, 1)
	failing := NewLocalStore(workspace.NewMemoryStore(), hooks, rand.New(rand.NewPCG(1, 1)), &on, nil)
	if !failsWithin(100, func() error { _, err := failing.CurrentRev("b1"); return err }) {
		t.Fatal("no local call failed in 100 with local-io on")
	}
	got := pairs(t, hooks.log)
	if want := []string{"local.write-file", "local.files", "local.fetch-cursor"}; !slices.Equal(got[:3], want) {
		t.Errorf("blocking points %q, want %q first", got, want)
	}
	for _, p := range got[3:] {
		if p != "local.current-rev" {
			t.Errorf("blocking point %q, want local.current-rev", p)
		}
	}
}

// TestContainerCallsBlockOnBothSides: every blocking call of the runtime
// blocks before and after; RuntimeID, Sync and SyncMode block on neither
// side.
func TestContainerCallsBlockOnBothSides(t *testing.T) {
	hooks := &sidesHooks{}
	off := Off()
	c := NewContainer("b1", hooks, rand.New(rand.NewPCG(1, 1)), &off)
	h := mustConnect(t, c)
	h.RuntimeID()
	rpc := h.Sync()
	h.SyncMode()
	if _, err := rpc.Watermarks(ctx, workspace.WatermarksRequest{}); err != nil {
		t.Fatal(err)
	}
	run(t, h, "write 1")
	env, err := rpc.FetchChanges(ctx, workspace.FetchRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := env.Changes.Next(ctx); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if err := env.Changes.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := rpc.Push(ctx, workspace.PushRequest{}); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	got := pairs(t, hooks.log)
	for _, op := range []Op{OpConnect, OpWatermarks, OpExec, OpEventNext, OpEventClose, OpFetch, OpStreamNext, OpStreamClose, OpPush, OpClose} {
		if !slices.Contains(got, "b1."+string(op)) {
			t.Errorf("no blocking points at %s: %q", op, got)
		}
	}
	for _, p := range got {
		if strings.HasSuffix(p, string(OpRuntimeID)) || strings.HasSuffix(p, "."+string(OpSync)) {
			t.Errorf("%s blocked: %q", p, got)
		}
	}
}

// failsWithin calls fn until it fails, at most n times, and reports whether
// it failed.
func failsWithin(n int, fn func() error) bool {
	for range n {
		if fn() != nil {
			return true
		}
	}
	return false
}
