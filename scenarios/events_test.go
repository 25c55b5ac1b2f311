package scenarios

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/sim/event"
)

// eventSeeds is how many generated seeds per configuration
// TestTraceEventsRoundTrip reads back.
const eventSeeds = 200

// TestTraceEventsRoundTrip runs generated seeds with their full trace and
// checks, line by line, that the trace is the rendering of its events:
// every event line reads back (event.ParseEvent), renders to the very same
// bytes, and reads back again into an equal event (the trace keeps
// records and renders these lines from them: sim.Trace). A planted bug adds
// violation lines. Every kind the simulator prints must show up, so a kind
// that stops being exercised fails the test rather than passing it by
// absence.
func TestTraceEventsRoundTrip(t *testing.T) {
	bug := DefaultConfig
	bug.Bug = "single-alarm"
	kinds := map[string]int{}
	records := 0
	for _, cfg := range []Config{DefaultConfig, bug} {
		for seed := uint64(1); seed <= eventSeeds; seed++ {
			r, err := Run(FromSeed(seed, cfg), RunOptions{})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			lines, events, headers := r.Trace.Lines(), r.Trace.Events(), r.Trace.Headers()
			if len(headers)+len(events) != len(lines) || r.Trace.Dropped() != 0 {
				t.Fatalf("seed %d: %d headers and %d events for %d lines", seed, len(headers), len(events), len(lines))
			}
			for i, e := range events {
				line := lines[len(headers)+i]
				text := e.String()
				if text != line {
					t.Fatalf("seed %d: event renders\n%s\nbut the trace printed\n%s", seed, text, line)
				}
				again, err := event.ParseEvent(text)
				if err != nil || !reflect.DeepEqual(again, e) {
					t.Fatalf("seed %d: %s does not read back (%v):\n%#v\n%#v", seed, line, err, again, e)
				}
				if e.IsRecord() {
					records++
					if seq, ok := e.Field("seq"); !ok || seq.Form != event.Seq || e.Value("op") == "" {
						t.Fatalf("seed %d: record without its sequence number or op: %s", seed, line)
					}
				}
				kinds[e.Kind]++
			}
		}
	}
	want := []string{"rt", "store", "start", "exec-result", "retry-result", "advance", "alarm-set", "alarm",
		"alarm-cancel", "fault", "host-start", "host-restart", "liveness", "local", "plant", "cancel", "cancelled", "violation"}
	var missing []string
	for _, k := range want {
		if kinds[k] == 0 {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		t.Errorf("no %s event in %d seeds: the round trip does not cover it", strings.Join(missing, ", "), 2*eventSeeds)
	}
	var extra []string
	for k := range kinds {
		if !slices.Contains(want, k) {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	t.Logf("%d events (%d records) read back; kinds not listed: %v", sumCounts(kinds), records, extra)
}

func sumCounts(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
