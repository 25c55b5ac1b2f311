package faults

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// A rankSet answers as a sorted slice of its members does, through any
// sequence of adds and removes: enough of them to split blocks many times
// and to empty them again.
func TestRankSetIsASortedSlice(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s rankSet
		var model []string
		key := rapid.Custom(func(t *rapid.T) string {
			return fmt.Sprintf("/out/%d-%d", rapid.IntRange(0, 400).Draw(t, "exec"), rapid.IntRange(0, 3).Draw(t, "file"))
		})
		for range rapid.IntRange(0, 1500).Draw(t, "ops") {
			v := key.Draw(t, "path")
			i, in := slices.BinarySearch(model, v)
			if rapid.IntRange(0, 2).Draw(t, "op") > 0 {
				if got := s.Add(v); got == in {
					t.Fatalf("Add(%q) = %t with the path a member: %t", v, got, in)
				}
				if !in {
					model = slices.Insert(model, i, v)
				}
			} else {
				if got := s.Remove(v); got != in {
					t.Fatalf("Remove(%q) = %t with the path a member: %t", v, got, in)
				}
				if in {
					model = slices.Delete(model, i, i+1)
				}
			}
			if s.Len() != len(model) {
				t.Fatalf("Len = %d, want %d", s.Len(), len(model))
			}
		}
		for k, want := range model {
			if got := s.At(k); got != want {
				t.Fatalf("At(%d) = %q, want %q", k, got, want)
			}
		}
		for _, b := range s.blocks {
			if len(b) == 0 || len(b) > rankBlockMax {
				t.Fatalf("a block of %d members (at most %d, never empty)", len(b), rankBlockMax)
			}
		}
	})
}

// The paths a write command edits are the container's live paths that the
// host did not push, whatever happened to them: a long run's targets match
// a filter over every file, command after command.
func TestEditTargetsAreTheLiveUnpushedPaths(t *testing.T) {
	c := NewContainer("b", nil, nil, nil)
	c.mu.Lock()
	defer c.mu.Unlock()
	for seq := range 400 {
		c.execSeq = seq
		switch seq % 5 {
		case 0, 1, 2:
			c.writeLocked(fmt.Sprintf("/out/%d", seq), "x", false)
		case 3:
			c.writeLocked(fmt.Sprintf("/out/%d", seq/2), "", true) // a delete
		case 4:
			c.currentRev++
			c.setFileLocked(fmt.Sprintf("/out/%d", seq/3), &remoteFile{content: []byte("pushed"), rev: c.currentRev, pushed: true})
		}
		var live []string
		for _, p := range c.sortedPathsLocked() {
			if f := c.files[p]; !f.deleted && !f.pushed {
				live = append(live, p)
			}
		}
		if c.editable.Len() != len(live) {
			t.Fatalf("after command %d: %d editable paths, want %d", seq, c.editable.Len(), len(live))
		}
		for k, p := range live {
			if got := c.editable.At(k); got != p {
				t.Fatalf("after command %d: editable path %d is %q, want %q", seq, k, got, p)
			}
		}
	}
	c.wipeLocked()
	if got := c.editTargetsLocked(3); got != nil || c.editable.Len() != 0 {
		t.Errorf("after a wipe: targets %q, %d editable", got, c.editable.Len())
	}
}
