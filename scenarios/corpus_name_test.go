package scenarios

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/syncsim/syncsim/faults"
	"github.com/syncsim/syncsim/sim"
	"github.com/syncsim/syncsim/sim/event"
)

// noWiden is a scenario the planted bug no-widen fails (see
// testdata/corpus/bug-no-widen.txt) and the correct code passes.
func noWiden() Scenario {
	return Scenario{Seed: 16, Config: Config{Backends: 1, Scheduler: "memory", Bug: "no-widen", Steps: 4}, Ops: []Op{
		{Kind: OpAdvance, Dur: 5 * time.Second},
		{Kind: OpExec, Mode: Defer, Writes: 1},
		{Kind: OpTruncate},
		{Kind: OpExec, Mode: Defer},
	}}
}

func TestCorpusName(t *testing.T) {
	s := noWiden()
	name := CorpusName(s, "model")
	if !regexp.MustCompile(`^model-no-widen-[0-9a-f]{12}\.txt$`).MatchString(name) {
		t.Fatalf("name %q", name)
	}
	if again := CorpusName(s, "model"); again != name {
		t.Fatalf("name not stable: %q then %q", name, again)
	}
	fixed := s
	fixed.Config.Bug = ""
	if got := CorpusName(fixed, ""); !strings.HasPrefix(got, "ok-correct-") {
		t.Fatalf("passing scenario under the correct code: %q", got)
	}
	other := s
	other.Profile = faults.Only(faults.Crash, 0.1)
	if CorpusName(other, "model") == name {
		t.Fatal("two different scenarios share a name")
	}
	if got := CorpusName(s, "Weird Property/x"); !strings.HasPrefix(got, "weird-property-x-") {
		t.Fatalf("unsafe property kept: %q", got)
	}
}

// TestWriteCorpusFile saves a failing scenario and replays the file the
// way TestCorpus does: same scenario, same expected block.
func TestWriteCorpusFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "corpus")
	s := noWiden()
	r, err := Run(s, RunOptions{NoLiveness: true, TraceKeep: 3})
	if err != nil {
		t.Fatal(err)
	}
	if r.Violation == nil {
		t.Fatal("no-widen scenario passed")
	}
	path, err := WriteCorpusFile(dir, s, r)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(path) != CorpusName(s, r.Violation.Property) {
		t.Fatalf("path %s", path)
	}
	cases, err := ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 1 {
		t.Fatalf("%d cases", len(cases))
	}
	if d := cmp.Diff(s, cases[0].Scenario, scenarioCmp...); d != "" {
		t.Fatalf("saved scenario differs (-want +got):\n%s", d)
	}
	replay, err := Run(cases[0].Scenario, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := Observe(replay); got != cases[0].Expected {
		t.Fatalf("replay differs from the saved expectation:\n%s\nvs\n%s", got, cases[0].Expected)
	}
	if p, ok := ExpectedProperty(cases[0].Expected); !ok || p != r.Violation.Property {
		t.Fatalf("expected property %q %t", p, ok)
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 {
		t.Fatalf("dir holds %v (%v): want the one file, no temporary left", entries, err)
	}

	// A result that does not match the replay is refused.
	wrong := Result{Violation: &sim.Violation{Property: "alarm"}}
	if _, err := WriteCorpusFile(dir, s, wrong); err == nil || !strings.Contains(err.Error(), `run reported "alarm", replay reports "model"`) {
		t.Fatalf("mismatched result: %v", err)
	}
}

// TestObserveDetails pins the detail rewriting Observe relies on.
func TestObserveDetails(t *testing.T) {
	got := orderDetails(event.ParseDetails(`error="a \"b\" c=d" notBefore=+0000001.150 runtime=b0-rt1 status=pending attempt=2 odd`))
	want := `status=pending attempt=2 notBefore=+0000001.150 runtime=b0-rt1 error="a \"b\" c=d" odd`
	if got != want {
		t.Fatalf("orderDetails:\n got %s\nwant %s", got, want)
	}
	in := event.Field{Key: "intent", Value: `{backend b1 runtime  target {3,"/a b}"} attempt 2 notBefore +0000002.500}`, Form: event.Bare}
	if got, want := renderIntent(in), `b1 runtime= target={3,"/a b}"} attempt=2 notBefore=+0000002.500`; got != want {
		t.Fatalf("renderIntent:\n got %s\nwant %s", got, want)
	}
	if got := renderIntent(event.Field{Value: "{garbled"}); got != "{garbled" {
		t.Fatalf("garbled intent: %s", got)
	}
	if got := Observe(Result{}); got != "no trace\nok\ntrace-hash \n" {
		t.Fatalf("empty result: %q", got)
	}
}
