package faults

import (
	"slices"
	"strings"
)

// rankSet is a set of strings kept in order that finds its k-th smallest
// member without walking the set: the container's editable paths, from
// which every `write` command with edits picks its targets by position. A
// long scenario accumulates thousands of paths, and filtering all of them
// at every command made a step's cost grow with the run.
//
// Members live in sorted blocks of at most rankBlockMax, so an insert or a
// delete moves at most one block's worth of entries and a lookup by rank
// skips whole blocks by their lengths: O(n/rankBlockMax + rankBlockMax)
// per operation, a few hundred machine words at the sizes runs reach.
type rankSet struct {
	blocks [][]string // each sorted, non-empty; every block's last < the next block's first
	n      int
}

// rankBlockMax is a block's largest size: a full block splits in two.
const rankBlockMax = 128

// Len returns the number of members.
func (s *rankSet) Len() int { return s.n }

// block returns the index of the block where v belongs: the first whose
// last member is >= v, or the last block when v is beyond them all.
func (s *rankSet) block(v string) int {
	i, _ := slices.BinarySearchFunc(s.blocks, v, func(b []string, v string) int {
		return strings.Compare(b[len(b)-1], v)
	})
	return min(i, len(s.blocks)-1)
}

// Add inserts v; it reports false when v was already a member.
func (s *rankSet) Add(v string) bool {
	if len(s.blocks) == 0 {
		s.blocks = append(s.blocks, []string{v}) // a short run never fills a block: let it grow
		s.n = 1
		return true
	}
	bi := s.block(v)
	b := s.blocks[bi]
	j, found := slices.BinarySearch(b, v)
	if found {
		return false
	}
	b = slices.Insert(b, j, v)
	if len(b) > rankBlockMax {
		half := len(b) / 2
		tail := slices.Clone(b[half:])
		clear(b[half:])
		b = b[:half]
		s.blocks = slices.Insert(s.blocks, bi+1, tail)
	}
	s.blocks[bi] = b
	s.n++
	return true
}

// Remove deletes v; it reports false when v was not a member.
func (s *rankSet) Remove(v string) bool {
	if len(s.blocks) == 0 {
		return false
	}
	bi := s.block(v)
	b := s.blocks[bi]
	j, found := slices.BinarySearch(b, v)
	if !found {
		return false
	}
	b = slices.Delete(b, j, j+1)
	if len(b) == 0 {
		s.blocks = slices.Delete(s.blocks, bi, bi+1)
	} else {
		s.blocks[bi] = b
	}
	s.n--
	return true
}

// At returns the member of rank k (0: the smallest); 0 <= k < Len.
func (s *rankSet) At(k int) string {
	for _, b := range s.blocks {
		if k < len(b) {
			return b[k]
		}
		k -= len(b)
	}
	panic("faults: rankSet.At out of range")
}

// Reset empties the set.
func (s *rankSet) Reset() {
	s.blocks, s.n = nil, 0
}
