package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestBenchJSONShape runs a tiny bench and checks only the shape of its
// JSON and that every figure is positive: a test never asserts on speed.
func TestBenchJSONShape(t *testing.T) {
	if testing.Short() {
		t.Skip("bench runs scenarios of 5,000 steps")
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"bench", "-json", "-quick", "-seeds", "20", "-round-seeds", "10"}, &out, &errOut); code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut.String())
	}
	var got map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out.String())
	}
	for _, k := range []string{
		"scenarios_per_sec", "scenarios_per_sec_default", "oracle_cost_ratio", "driver_cost_ratio", "harness_cpu_us_per_scenario", "direct_cpu_us_per_scenario", "events_per_sec", "time_compression", "overhead_ratio", "vs_clock_mock",
		"determinism_cost_ratio", "growth", "peak_heap_bytes_small", "peak_heap_bytes_large",
		"seeds_small", "seeds_large",
	} {
		v, ok := got[k].(float64)
		if !ok || !(v > 0) {
			t.Errorf("%s = %v, want a positive number", k, got[k])
		}
	}
	m, _ := got["machine"].(map[string]any)
	for _, k := range []string{"goos", "goarch", "num_cpu", "gomaxprocs", "go_version"} {
		if _, ok := m[k]; !ok {
			t.Errorf("machine.%s missing", k)
		}
	}
	targets, _ := got["targets"].(map[string]any)
	for _, k := range []string{"scenarios_per_sec", "scenarios_per_sec_default", "overhead_ratio", "vs_clock_mock", "determinism_cost_ratio", "growth"} {
		tg, _ := targets[k].(map[string]any)
		if _, ok := tg["pass"].(bool); !ok {
			t.Errorf("targets.%s.pass missing", k)
		}
		lo, _ := tg["min"].(float64)
		v, _ := tg["value"].(float64)
		hi, _ := tg["max"].(float64)
		if !(lo <= v && v <= hi) {
			t.Errorf("targets.%s: min %v, value %v, max %v: want the value within its range", k, lo, v, hi)
		}
	}
	if rounds, _ := got["rounds"].(float64); rounds != 5 {
		t.Errorf("rounds = %v, want 5 with -quick", got["rounds"])
	}
	arms, _ := got["arms"].([]any)
	var names []string
	for _, a := range arms {
		a, _ := a.(map[string]any)
		names = append(names, fmt.Sprint(a["name"]))
		if rs, _ := a["rounds"].([]any); len(rs) != 5 {
			t.Errorf("arm %v: %d rounds, want 5", a["name"], len(rs))
		}
		sp, _ := a["scenarios_per_sec"].(map[string]any)
		if med, _ := sp["median"].(float64); !(med > 0) {
			t.Errorf("arm %v: scenarios_per_sec %v, want a positive median", a["name"], a["scenarios_per_sec"])
		}
	}
	if want := "[default memory none direct double]"; fmt.Sprint(names) != want {
		t.Errorf("arms %v, want %s", names, want)
	}
	// The headline figures are the arms' medians, not another measurement.
	if v, _ := got["scenarios_per_sec"].(float64); v != medianOf(arms, "memory") {
		t.Errorf("scenarios_per_sec %v is not the memory arm's median %v", v, medianOf(arms, "memory"))
	}
	if v, _ := got["scenarios_per_sec_default"].(float64); v != medianOf(arms, "default") {
		t.Errorf("scenarios_per_sec_default %v is not the default arm's median %v", v, medianOf(arms, "default"))
	}
}

// medianOf is the scenarios_per_sec median of the arm called name in a
// decoded -json "arms" list.
func medianOf(arms []any, name string) float64 {
	for _, a := range arms {
		if a, _ := a.(map[string]any); a["name"] == name {
			sp, _ := a["scenarios_per_sec"].(map[string]any)
			v, _ := sp["median"].(float64)
			return v
		}
	}
	return -1
}

// TestBenchTable checks that the human table names every target.
func TestBenchTable(t *testing.T) {
	if testing.Short() {
		t.Skip("bench runs scenarios of 5,000 steps")
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"bench", "-quick", "-seeds", "20", "-round-seeds", "10"}, &out, &errOut); code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut.String())
	}
	for _, k := range []string{"scenarios_per_sec", "scenarios_per_sec_default", "overhead_ratio", "vs_clock_mock", "determinism_cost_ratio", "growth", "machine",
		"oracle_cost_ratio", "driver_cost_ratio", "cpu ", "rounds ", "default ", "memory ", "none ", "direct ", "double "} {
		if !strings.Contains(out.String(), k) {
			t.Errorf("table lacks %s:\n%s", k, out.String())
		}
	}
}

// TestBenchByPropertyFlag: -by-property reaches the per-checker costing
// (benchByProperty's own test checks its figures).
func TestBenchByPropertyFlag(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"bench", "-by-property", "-seeds", "3", "-seed", "5", "-json"}, &out, &errOut); code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut.String())
	}
	var r byPropertyJSON
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out.String())
	}
	if r.Seeds != 3 || r.FirstSeed != 5 || len(r.Checkers) == 0 {
		t.Errorf("seeds %d from %d, %d checkers; want 3 from 5 and every checker", r.Seeds, r.FirstSeed, len(r.Checkers))
	}
}
