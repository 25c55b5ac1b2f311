package model

import (
	"testing"
	"time"

	"github.com/syncsim/syncsim/scheduler"
)

func TestSettled(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rt, other := "rt-1", "rt-2"
	target := scheduler.AtPath(7, "/a")
	in := func(b string, attempt int) scheduler.Intent {
		return scheduler.Intent{Backend: b, Attempt: attempt, NotBefore: t0, RuntimeID: &rt, TargetCursor: &target}
	}
	a1, b1 := in("a", 1), in("b", 1)
	s := Settled{}.Settle([]scheduler.Intent{a1, b1}, []scheduler.Intent{a1, in("b", 2)})
	if !s.Has(a1) {
		t.Errorf("a handed over and stored unchanged is not settled")
	}
	if s.Has(b1) || s.Has(in("b", 2)) {
		t.Errorf("b changed during the firing but is settled")
	}
	// A copy with equal fields (new pointers, the same instant in another
	// zone) is the same intent.
	same := a1
	rt2, tg2 := rt, target
	same.RuntimeID, same.TargetCursor, same.NotBefore = &rt2, &tg2, t0.In(time.FixedZone("x", 3600))
	if !s.Has(same) {
		t.Errorf("an equal copy of a is not settled")
	}
	for name, changed := range map[string]func(*scheduler.Intent){
		"runtime":     func(i *scheduler.Intent) { i.RuntimeID = &other },
		"no runtime":  func(i *scheduler.Intent) { i.RuntimeID = nil },
		"no target":   func(i *scheduler.Intent) { i.TargetCursor = nil },
		"target path": func(i *scheduler.Intent) { c := scheduler.AtPath(7, "/b"); i.TargetCursor = &c },
		"target rev":  func(i *scheduler.Intent) { c := scheduler.AtPath(8, "/a"); i.TargetCursor = &c },
		"null path":   func(i *scheduler.Intent) { c := scheduler.At(7); i.TargetCursor = &c },
		"not before":  func(i *scheduler.Intent) { i.NotBefore = t0.Add(time.Nanosecond) },
		"attempt":     func(i *scheduler.Intent) { i.Attempt = 2 },
	} {
		c := a1
		changed(&c)
		if s.Has(c) {
			t.Errorf("%s: a changed intent is settled", name)
		}
	}
	// Not handed over again and still stored: stays settled. Stored
	// changed: dropped. Handed over again and changed: dropped.
	if s2 := s.Settle(nil, []scheduler.Intent{a1}); !s2.Has(a1) {
		t.Errorf("a settled earlier and stored unchanged lost its settlement")
	}
	if s2 := s.Settle(nil, []scheduler.Intent{in("a", 3)}); s2.Has(a1) || s2.Has(in("a", 3)) {
		t.Errorf("a settled earlier and then changed is still settled")
	}
	if s2 := s.Settle([]scheduler.Intent{in("a", 2)}, []scheduler.Intent{in("a", 3)}); s2.Has(a1) {
		t.Errorf("a fresh hand-over did not supersede the older settlement")
	}
	// A null-path cursor with a stray path string is the same position.
	stray := scheduler.Cursor{Rev: 7, Path: "stray"}
	plain := scheduler.At(7)
	x, y := a1, a1
	x.TargetCursor, y.TargetCursor = &stray, &plain
	if !SameIntent(x, y) {
		t.Errorf("a null-path cursor's stray path string made two intents differ")
	}
}
