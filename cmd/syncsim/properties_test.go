package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/sim/oracle"
)

// -properties takes registry names only: an unknown one is a usage error
// naming it, for every command that runs scenarios.
func TestPropertiesFlagRefusesUnknownNames(t *testing.T) {
	for _, sub := range []string{"run", "replay", "hunt"} {
		args := []string{sub, "-properties", "fifo,no-such-property"}
		if sub == "replay" {
			args = append(args, "-seed", "1")
		}
		wantUsageError(t, "no-such-property", args...)
	}
}

// -properties switches a property off: fifo-overlap is caught by fifo when
// it is judged, and a run that does not judge fifo never reports it.
func TestPropertiesFlagSelects(t *testing.T) {
	sweep := func(props string) (failed int, property string) {
		t.Helper()
		code, out, errs := syncsim(t, "run", "-bug", "fifo-overlap", "-seeds", "400", "-seed", "1", "-shrink=false", "-json", "-properties", props)
		if code != exitOK && code != exitFail {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var sum struct {
			Failed   int `json:"failed"`
			Failures []struct {
				Property string `json:"property"`
			} `json:"failures"`
		}
		if err := json.Unmarshal([]byte(out), &sum); err != nil {
			t.Fatal(err)
		}
		if len(sum.Failures) > 0 {
			property = sum.Failures[0].Property
		}
		return sum.Failed, property
	}
	if failed, p := sweep("fifo"); failed == 0 || p != "fifo" {
		t.Fatalf("judging fifo: expected fifo-overlap caught by fifo, got %d failures (%q)", failed, p)
	}
	if _, p := sweep("handle-leak,dispose-once"); p == "fifo" {
		t.Fatal("fifo is not judged, yet a run reported it")
	}
}

// The properties command lists the registry, in order, and -json agrees.
func TestPropertiesCommandListsTheRegistry(t *testing.T) {
	code, out, _ := syncsim(t, "properties")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(oracle.Registry)+1 {
		t.Fatalf("expected a header and %d properties, got %d lines", len(oracle.Registry), len(lines))
	}
	for i, p := range oracle.Registry {
		if f := strings.Fields(lines[i+1]); f[0] != p.Name {
			t.Errorf("line %d: expected %s, got %s", i+1, p.Name, f[0])
		}
	}
	code, out, _ = syncsim(t, "properties", "-json")
	var j struct {
		Properties []struct {
			Name     string `json:"name"`
			JudgedBy string `json:"judged_by"`
		} `json:"properties"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &j) != nil || len(j.Properties) != len(oracle.Registry) {
		t.Fatalf("properties -json: exit %d, %d entries", code, len(j.Properties))
	}
	for i, p := range oracle.Registry {
		if want := map[bool]string{true: "checker", false: "driver"}[p.InOracle()]; j.Properties[i].JudgedBy != want {
			t.Errorf("%s: judged_by %s, want %s", p.Name, j.Properties[i].JudgedBy, want)
		}
	}
}
