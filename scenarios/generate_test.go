package scenarios

import (
	"slices"
	"testing"
	"time"

	"github.com/syncsim/syncsim/sim"
)

// TestGenerateBackendLocality: consecutive top-level ops that name a
// backend stay on the same one about three times in four with two backends
// (backendDraw), while consecutive members of a group do so about one time
// in two (they draw freely; a cancelling group, moved to one backend on
// purpose, is TestCancelGroupsShareABackend's).
func TestGenerateBackendLocality(t *testing.T) {
	var top, member [2]int // pairs of consecutive ops naming a backend, and those on the same one
	for seed := range uint64(300) {
		s := FromSeed(seed, DefaultConfig)
		countSameBackend(s.Ops, &top)
		for _, op := range s.Ops {
			if op.Kind == OpGroup && !hasMember(op, OpCancel) {
				countSameBackend(op.Ops, &member)
			}
		}
	}
	if f := float64(top[1]) / float64(top[0]); f < 0.68 || f > 0.82 {
		t.Errorf("top-level ops on the previous op's backend: %d of %d (%.2f), want about 3/4", top[1], top[0], f)
	}
	if f := float64(member[1]) / float64(member[0]); f < 0.42 || f > 0.58 {
		t.Errorf("group members on the previous member's backend: %d of %d (%.2f), want about 1/2", member[1], member[0], f)
	}
}

// countSameBackend adds to n[0] the consecutive pairs among ops (groups
// skipped) that both name a backend and to n[1] those naming the same one.
func countSameBackend(ops []Op, n *[2]int) {
	last := -1
	for _, op := range ops {
		if !hasBackend(op.Kind) {
			continue
		}
		if last >= 0 {
			n[0]++
			if op.Backend == last {
				n[1]++
			}
		}
		last = op.Backend
	}
}

// TestSwarmLeavesFaultOpsToTheProfile: Swarm switches off about a third of
// the op kinds it may (writes, retries, groups) and never a fault op, which
// the seed's fault profile switches (applyProfile), so a seed has
// truncations about half the time rather than a third.
func TestSwarmLeavesFaultOpsToTheProfile(t *testing.T) {
	const seeds = 600
	off := map[OpKind]int{}
	truncating := 0
	for seed := range uint64(seeds) {
		w := Swarm(sim.Stream(seed, sim.LabelWorkload))
		for k, x := range w {
			if x == 0 {
				off[OpKind(k)]++
			}
		}
		if slices.ContainsFunc(FromSeed(seed, DefaultConfig).Ops, func(o Op) bool { return o.Kind == OpTruncate }) {
			truncating++
		}
	}
	for k := range profileKinds {
		if off[k] > 0 {
			t.Errorf("Swarm switched off %s in %d of %d seeds: the profile alone switches it", k, off[k], seeds)
		}
	}
	for _, k := range []OpKind{OpWrite, OpRetry, OpGroup} {
		if off[k] < seeds/4 || off[k] > seeds*5/12 {
			t.Errorf("Swarm switched off %s in %d of %d seeds, want about a third", k, off[k], seeds)
		}
	}
	if truncating < seeds*2/5 {
		t.Errorf("%d of %d seeds truncate a log, want about half", truncating, seeds)
	}
}

// TestCancelGroupsShareABackend: cancelling groups race their operations
// on one backend (addCancels), and explicit pulls replace some retries
// (addPulls).
func TestCancelGroupsShareABackend(t *testing.T) {
	same, mixed, pulls := 0, 0, 0
	for seed := uint64(1); seed <= 400; seed++ {
		for _, op := range FromSeed(seed, DefaultConfig).Ops {
			if op.Kind == OpPull {
				pulls++
			}
			if op.Kind != OpGroup || !hasMember(op, OpCancel) {
				continue
			}
			backends := map[int]bool{}
			for _, m := range op.Ops {
				if m.Kind == OpPull {
					pulls++
				}
				if hasBackend(m.Kind) {
					backends[m.Backend] = true
				}
			}
			if len(backends) == 1 {
				same++
			} else if len(backends) > 1 {
				mixed++
			}
		}
	}
	if same == 0 || mixed != 0 {
		t.Errorf("cancelling groups on one backend %d, on several %d: expected all on one", same, mixed)
	}
	if pulls == 0 {
		t.Error("no explicit pull generated in 400 seeds")
	}
}

// TestRetryChoicesShowEachDefault: the seeds' retry settings leave each
// SPEC 2.1 default (1 s, 60 s, 5 attempts) to the workspace somewhere it
// shows in the intents the model predicts: the default maximum capping a
// delay before the attempts run out (the all-defaults setting stops at
// 16 s), and the default initial delay and attempts under a drawn maximum.
func TestRetryChoicesShowEachDefault(t *testing.T) {
	const defInitial, defMax, defAttempts = time.Second, time.Minute, 5
	var maxCaps, initialUnderMax, attemptsDefault bool
	for _, c := range retryChoices {
		initial, attempts := c.InitialDelay, c.MaxAttempts
		if initial == 0 {
			initial = defInitial
		}
		if attempts == 0 {
			attempts = defAttempts
			attemptsDefault = true
		}
		if c.MaxDelay == 0 {
			// Attempt k waits initial·2^(k−1); the last one scheduled is
			// attempts−1 (the attempts-th failure exhausts).
			for k := 1; k < attempts; k++ {
				if initial<<(k-1) > defMax {
					maxCaps = true
				}
			}
		}
		if c.InitialDelay == 0 && c.MaxDelay != 0 {
			initialUnderMax = true
		}
	}
	if !maxCaps || !initialUnderMax || !attemptsDefault {
		t.Errorf("retry choices: default maximum capping a delay %t, default initial delay under a drawn maximum %t, default attempts %t; want all", maxCaps, initialUnderMax, attemptsDefault)
	}
}
