package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/syncsim/syncsim/sim/oracle"
)

// -by-property times every built-in checker and lists the properties the
// driver still judges; together they are the registry.
func TestBenchByPropertyCoversTheRegistry(t *testing.T) {
	var out, errb bytes.Buffer
	if code := benchByProperty(env{stdout: &out, stderr: &errb}, 30, 1, true); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r byPropertyJSON
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range r.Checkers {
		// The driver's checker reads only the run's own failures, which
		// a passing sweep never records.
		if c.MicrosPerRun < 0 || c.CallsPerRun <= 0 && c.Checker != "handle-leak" && c.Checker != "driver" {
			t.Errorf("checker %s: %+v", c.Checker, c)
		}
		for _, p := range c.Properties {
			seen[p] = true
		}
	}
	for _, p := range r.DriverJudged {
		seen[p] = true
	}
	for _, p := range oracle.Registry {
		if !seen[p.Name] {
			t.Errorf("property %s is neither timed nor listed as driver-judged", p.Name)
		}
	}
	if r.RunMicros <= 0 || r.CheckersMicros <= 0 || r.CheckersMicros >= r.RunMicros {
		t.Fatalf("implausible totals: run %.1f µs, checkers %.1f µs", r.RunMicros, r.CheckersMicros)
	}
}
