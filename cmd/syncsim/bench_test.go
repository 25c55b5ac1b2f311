package main

import (
	"bytes"
	"encoding/json"
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
	if code := run([]string{"bench", "-json", "-quick", "-seeds", "20"}, &out, &errOut); code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut.String())
	}
	var got map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out.String())
	}
	for _, k := range []string{
		"scenarios_per_sec", "events_per_sec", "time_compression", "overhead_ratio", "vs_clock_mock",
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
	for _, k := range []string{"scenarios_per_sec", "overhead_ratio", "vs_clock_mock", "determinism_cost_ratio", "growth"} {
		tg, _ := targets[k].(map[string]any)
		if _, ok := tg["pass"].(bool); !ok {
			t.Errorf("targets.%s.pass missing", k)
		}
	}
}

// TestBenchTable checks that the human table names every target.
func TestBenchTable(t *testing.T) {
	if testing.Short() {
		t.Skip("bench runs scenarios of 5,000 steps")
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"bench", "-quick", "-seeds", "20"}, &out, &errOut); code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut.String())
	}
	for _, k := range []string{"scenarios_per_sec", "overhead_ratio", "vs_clock_mock", "determinism_cost_ratio", "growth", "machine"} {
		if !strings.Contains(out.String(), k) {
			t.Errorf("table lacks %s:\n%s", k, out.String())
		}
	}
}

func TestBenchUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"bench", "-seeds", "-1"}, &out, &errOut); code != exitUsage {
		t.Fatalf("exit %d, want %d", code, exitUsage)
	}
}
