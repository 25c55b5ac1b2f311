package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// mergeJSON is `syncsim merge -json`: the sums of the shards' `run -json`
// summaries, their failures in seed order, and whether every shard ran
// every seed it was given.
type mergeJSON struct {
	runJSON
	Shards int `json:"shards"`
	// Complete: every shard ran all its seeds (none stopped at
	// -max-failures or by a signal).
	Complete bool `json:"complete"`
	// Incomplete lists the shards that did not, "i/n: why".
	Incomplete []string `json:"incomplete"`
}

// shardFile is one decoded shard summary and where it came from.
type shardFile struct {
	path string
	j    runJSON
	i    uint64 // the shard index, once checked
}

// cmdMerge combines the -json summaries of the shards of one sweep. It
// exits 2 when they are not the shards of one sweep (a different seed
// range or shape, a shard missing or given twice, a failure outside its
// shard), 1 when any shard failed or did not run all its seeds, else 0.
func cmdMerge(e env, args []string) int {
	fs := newFlagSet("merge")
	jsonOut := fs.Bool("json", false, "write one JSON object on stdout and nothing else there")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return flagFailure(e, "merge", fs, err)
	}
	if len(pos) == 0 {
		return usageError(e, "merge", "no shard summaries given (the files `syncsim run -shard i/n -json` wrote)")
	}
	shards := make([]shardFile, 0, len(pos))
	for _, p := range pos {
		j, err := readRunJSON(p)
		if err != nil {
			return inputError(e, "merge", err)
		}
		shards = append(shards, shardFile{path: p, j: j})
	}
	m, err := mergeShards(shards)
	if err != nil {
		return inputError(e, "merge", err)
	}
	if *jsonOut {
		if err := writeJSON(e.stdout, m); err != nil {
			return inputError(e, "merge", err)
		}
	} else {
		writeMerged(e, m)
	}
	for _, why := range m.Incomplete {
		fmt.Fprintf(e.stderr, "syncsim merge: shard %s\n", why)
	}
	if m.Failed > 0 || !m.Complete {
		return exitFail
	}
	return exitOK
}

// readRunJSON decodes one `syncsim run -json` object.
func readRunJSON(path string) (runJSON, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return runJSON{}, err
	}
	var j runJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return runJSON{}, fmt.Errorf("%s: not a syncsim run -json summary: %v", path, err)
	}
	if j.SeedsTotal == 0 || j.Shard == "" {
		return runJSON{}, fmt.Errorf("%s: no seeds_total or shard field: not a syncsim run -json summary (or one from an older syncsim)", path)
	}
	return j, nil
}

// mergeShards checks that the shards are the disjoint, complete split of
// one sweep and sums them.
func mergeShards(shards []shardFile) (mergeJSON, error) {
	var n uint64
	byIndex := map[uint64]string{}
	ref := shards[0]
	for k := range shards {
		s := &shards[k]
		var sh shardFlag
		if err := sh.Set(s.j.Shard); err != nil {
			return mergeJSON{}, fmt.Errorf("%s: shard %q: %v", s.path, s.j.Shard, err)
		}
		s.i = sh.i
		if err := sameSweep(ref, *s); err != nil {
			return mergeJSON{}, err
		}
		if n == 0 {
			n = sh.n
		}
		if sh.n != n {
			return mergeJSON{}, fmt.Errorf("%s is shard %s but %s is of %d shards", s.path, s.j.Shard, ref.path, n)
		}
		if other, dup := byIndex[sh.i]; dup {
			return mergeJSON{}, fmt.Errorf("shard %s given twice: %s and %s", s.j.Shard, other, s.path)
		}
		byIndex[sh.i] = s.path
		sp := sweepSpec{first: s.j.FirstSeed, count: s.j.SeedsTotal, shard: sh}
		if s.j.SeedsPlanned != sp.seeds() {
			return mergeJSON{}, fmt.Errorf("%s: shard %s of %d seeds plans %d seeds, want %d", s.path, s.j.Shard, s.j.SeedsTotal, s.j.SeedsPlanned, sp.seeds())
		}
		if s.j.Passed+s.j.Failed != s.j.Seeds || s.j.Failed != len(s.j.Failures) {
			return mergeJSON{}, fmt.Errorf("%s: counts disagree: %d passed + %d failed != %d seeds, or %d failures listed", s.path, s.j.Passed, s.j.Failed, s.j.Seeds, len(s.j.Failures))
		}
		for _, f := range s.j.Failures {
			if (f.Seed-s.j.FirstSeed)%n != sh.i {
				return mergeJSON{}, fmt.Errorf("%s: failure at seed %d is not in shard %s", s.path, f.Seed, s.j.Shard)
			}
		}
	}
	var missing []string
	for i := range n {
		if _, ok := byIndex[i]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", i, n))
		}
	}
	if len(missing) > 0 {
		return mergeJSON{}, fmt.Errorf("shard %s missing: the merge would not cover seeds %d..%d", strings.Join(missing, ", "),
			ref.j.FirstSeed, ref.j.FirstSeed+ref.j.SeedsTotal-1)
	}
	return sumShards(shards, int(n)), nil
}

// sameSweep checks that s was run with the same seed range and shape as ref.
func sameSweep(ref, s shardFile) error {
	a, b := ref.j, s.j
	for _, d := range []struct {
		what string
		x, y any
	}{
		{"first_seed", a.FirstSeed, b.FirstSeed}, {"seeds_total", a.SeedsTotal, b.SeedsTotal},
		{"bug", a.Bug, b.Bug}, {"backends", a.Backends, b.Backends},
		{"scheduler", a.Scheduler, b.Scheduler}, {"scenario_steps", a.ScenarioSteps, b.ScenarioSteps},
	} {
		if d.x != d.y {
			return fmt.Errorf("%s and %s are not shards of one sweep: %s %v vs %v", ref.path, s.path, d.what, d.x, d.y)
		}
	}
	return nil
}

// sumShards adds the counts up. Rates are per process, like a shard's: the
// seeds (events) over the sum of the shards' wall seconds.
func sumShards(shards []shardFile, n int) mergeJSON {
	ref := shards[0].j
	m := mergeJSON{Shards: n, Complete: true, Incomplete: []string{}}
	m.runJSON = runJSON{
		FirstSeed: ref.FirstSeed, SeedsTotal: ref.SeedsTotal, SeedsPlanned: ref.SeedsTotal, Shard: fmt.Sprintf("all/%d", n),
		Bug: ref.Bug, Backends: ref.Backends, Scheduler: ref.Scheduler, ScenarioSteps: ref.ScenarioSteps,
		Failures: []failureJSON{},
	}
	slices.SortFunc(shards, func(a, b shardFile) int { return cmpUint(a.i, b.i) })
	for _, s := range shards {
		j := s.j
		m.Seeds += j.Seeds
		m.Passed += j.Passed
		m.Failed += j.Failed
		m.Steps += j.Steps
		m.Events += j.Events
		m.SimSeconds += j.SimSeconds
		m.WallSeconds += j.WallSeconds
		m.Workers += j.Workers
		m.StoppedEarly = m.StoppedEarly || j.StoppedEarly
		m.Interrupted = m.Interrupted || j.Interrupted
		m.Failures = append(m.Failures, j.Failures...)
		if uint64(j.Seeds) < j.SeedsPlanned {
			why := "interrupted"
			if j.StoppedEarly {
				why = "stopped at -max-failures"
			}
			m.Complete = false
			m.Incomplete = append(m.Incomplete, fmt.Sprintf("%s: ran %d of %d seeds (%s)", j.Shard, j.Seeds, j.SeedsPlanned, why))
		}
	}
	slices.SortFunc(m.Failures, func(a, b failureJSON) int { return cmpUint(a.Seed, b.Seed) })
	wall := time.Duration(m.WallSeconds * float64(time.Second))
	m.ScenariosPerSec, m.EventsPerSec = rate(float64(m.Seeds), wall), rate(float64(m.Events), wall)
	return m
}

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// writeMerged prints one line per failure and a summary in run's shape.
func writeMerged(e env, m mergeJSON) {
	for _, f := range m.Failures {
		fmt.Fprintf(e.stdout, "FAIL seed %d property %s", f.Seed, f.Property)
		if f.File != "" {
			fmt.Fprintf(e.stdout, " file %s", f.File)
		}
		fmt.Fprintf(e.stdout, "\n  %s\n", f.Replay)
	}
	s := fmt.Sprintf("syncsim: merged %d shards: %d seeds (first %d) of %d, %d passed, %d failed", m.Shards, m.Seeds, m.FirstSeed, m.SeedsTotal, m.Passed, m.Failed)
	if !m.Complete {
		s += fmt.Sprintf(" (%d shards incomplete)", len(m.Incomplete))
	}
	fmt.Fprintf(e.stdout, "%s, %d steps run, %s events, %s simulated in %s of shard time\n",
		s, m.Steps, humanCount(float64(m.Events)), humanSim(time.Duration(m.SimSeconds*float64(time.Second))),
		humanWall(time.Duration(m.WallSeconds*float64(time.Second))))
}
