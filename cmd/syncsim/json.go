package main

import (
	"encoding/json"
	"io"
	"time"

	"github.com/syncsim/syncsim/scenarios"
)

// writeJSON writes v as the one JSON object on stdout.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// runJSON is `syncsim run -json`. Shards merge by summing the counts and
// concatenating failures (then sorting them by seed); the rates are
// per-process and are recomputed from the sums.
type runJSON struct {
	Seeds           int           `json:"seeds"` // seeds run: passed + failed
	FirstSeed       uint64        `json:"first_seed"`
	SeedsPlanned    uint64        `json:"seeds_planned"` // this shard's share of -seeds
	Shard           string        `json:"shard"`         // "i/n"; "0/1" unsharded
	Bug             string        `json:"bug"`
	Steps           int64         `json:"steps"`
	Backends        int           `json:"backends"`
	Scheduler       string        `json:"scheduler"`
	ScenarioSteps   int           `json:"scenario_steps"` // -steps
	Passed          int           `json:"passed"`
	Failed          int           `json:"failed"`
	StoppedEarly    bool          `json:"stopped_early"` // -max-failures reached
	Interrupted     bool          `json:"interrupted"`   // SIGINT or SIGTERM ended the sweep early
	SeedsTotal      uint64        `json:"seeds_total"`   // -seeds: the whole range all shards split
	Events          int64         `json:"events"`
	SimSeconds      float64       `json:"sim_seconds"`
	WallSeconds     float64       `json:"wall_seconds"`
	ScenariosPerSec float64       `json:"scenarios_per_sec"`
	EventsPerSec    float64       `json:"events_per_sec"`
	Workers         int           `json:"workers"`
	Failures        []failureJSON `json:"failures"`
}

// failureJSON is one failing seed.
type failureJSON struct {
	Seed          uint64  `json:"seed"`
	Property      string  `json:"property"`
	Detail        string  `json:"detail"`
	Profile       string  `json:"profile"`
	File          string  `json:"file"` // "" when not shrunk or saved
	StepsBefore   int     `json:"steps_before"`
	StepsAfter    int     `json:"steps_after"`
	ShrinkSeconds float64 `json:"shrink_seconds"`
	ShrinkError   string  `json:"shrink_error,omitempty"`
	SaveError     string  `json:"save_error,omitempty"`
	Replay        string  `json:"replay"`
}

func runSummaryJSON(sp sweepSpec, t totals, wall time.Duration) runJSON {
	out := runJSON{
		Seeds: t.seeds, FirstSeed: sp.first, SeedsPlanned: sp.seeds(), Shard: sp.shard.String(),
		Bug: sp.cfg.Bug, Steps: t.steps, Backends: sp.cfg.Backends, Scheduler: sp.cfg.Scheduler,
		ScenarioSteps: sp.cfg.Steps, Passed: t.passed, Failed: len(t.failures), StoppedEarly: t.stopped,
		Interrupted: t.interrupted, SeedsTotal: sp.count,
		Events: t.events, SimSeconds: t.sim.Seconds(), WallSeconds: wall.Seconds(),
		ScenariosPerSec: rate(float64(t.seeds), wall), EventsPerSec: rate(float64(t.events), wall),
		Workers: sp.workers, Failures: []failureJSON{},
	}
	for _, f := range t.failures {
		out.Failures = append(out.Failures, f.json(sp.cfg))
	}
	return out
}

func (f *failure) json(c scenarios.Config) failureJSON {
	j := failureJSON{
		Seed: f.seed, Property: f.property, Detail: f.detail, Profile: f.scenario.Profile.String(),
		File: f.file, StepsBefore: f.stepsBefore, StepsAfter: f.stepsAfter,
		ShrinkSeconds: f.shrinkTime.Seconds(), Replay: replayLine(f.seed, c),
	}
	if f.shrinkErr != nil {
		j.ShrinkError = oneLine(f.shrinkErr.Error())
	}
	if f.saveErr != nil {
		j.SaveError = oneLine(f.saveErr.Error())
	}
	return j
}

// rate is n per wall second (0 for a zero duration).
func rate(n float64, wall time.Duration) float64 {
	if wall <= 0 {
		return 0
	}
	return n / wall.Seconds()
}
