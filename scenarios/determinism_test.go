package scenarios

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/syncsim/syncsim/sim"
)

var rewriteDeterminism = flag.Bool("syncsim.rewrite-determinism", false,
	"rewrite testdata/determinism.golden with this build's trace hashes")

// determinismSeeds is how many seeds the determinism check covers.
const determinismSeeds = 200

// TestDeterminism runs 200 seeds under GOMAXPROCS=1 and =8 in this process
// and requires byte-identical traces, reporting the first differing line.
// It also compares a digest of all 200 trace hashes with a golden file, so
// that a run under -race (CI does one) and a run without it must agree
// across processes too.
func TestDeterminism(t *testing.T) {
	prev := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(prev)
	digest := sha256.New()
	for i := range determinismSeeds {
		seed := uint64(i + 1)
		s := FromSeed(seed, DefaultConfig)
		runtime.GOMAXPROCS(1)
		a := mustRun(t, s)
		runtime.GOMAXPROCS(8)
		b := mustRun(t, s)
		if a.Hash != b.Hash {
			at, la, lb, _ := sim.FirstDiff(a.Trace.Lines(), b.Trace.Lines())
			t.Fatalf("seed %d: traces differ between GOMAXPROCS 1 and 8 at line %d:\n  1: %s\n  8: %s", seed, at+1, la, lb)
		}
		digest.Write([]byte(a.Hash + "\n"))
	}
	got := hex.EncodeToString(digest.Sum(nil))
	golden := filepath.Join("testdata", "determinism.golden")
	if *rewriteDeterminism {
		if err := os.WriteFile(golden, []byte(got+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (create it with -syncsim.rewrite-determinism)", err)
	}
	if w := strings.TrimSpace(string(want)); w != got {
		t.Fatalf("digest of %d trace hashes is %s, golden %s: traces changed. If the change is intended "+
			"(a new trace line, a new fault draw), review it and rerun with -syncsim.rewrite-determinism; "+
			"if not, the simulation is not reproducible across builds (-race vs not)", determinismSeeds, got, w)
	}
}

func mustRun(t *testing.T, s Scenario) Result {
	t.Helper()
	r, err := Run(s, RunOptions{})
	if err != nil {
		t.Fatalf("seed %d: %v", s.Seed, err)
	}
	return r
}
